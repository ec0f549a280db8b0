// See Schedule.h: LoopLevel, and the schedule calls that take one
// (Func::compute_at / store_at / hoist_storage, Func and Stage compute_with).
#include "Halide/Error.h"
#include "Halide/Func.h"
#include "Halide/Schedule.h"
#include "lower/Function.h"

namespace Halide {

using namespace Internal;

namespace {

constexpr const char *kUndefined = "__undefined_loop_level_var_name";

std::shared_ptr<LoopLevelContents> make_contents(const std::string &func, const std::string &var, bool is_rvar,
                                                 int stage) {
    auto c = std::make_shared<LoopLevelContents>();
    c->func_name = func;
    c->var_name = var;
    c->is_rvar = is_rvar;
    c->stage_index = stage;
    return c;
}

} // namespace

LoopLevel::LoopLevel() : contents_(make_contents("", kUndefined, false, -1)) {}

LoopLevel::LoopLevel(const Func &f, const VarOrRVar &v, int stage_index)
    : contents_(make_contents(f.name(), v.name(), v.is_rvar, stage_index)) {
    user_assert(stage_index >= -1 && stage_index <= f.num_update_definitions())
        << "LoopLevel of Func '" << f.name() << "': stage " << stage_index << " does not exist (it has "
        << f.num_update_definitions() + 1 << " stages)";
}

LoopLevel LoopLevel::inlined() {
    return LoopLevel(make_contents("", "__inlined", false, -1));
}

LoopLevel LoopLevel::root() {
    return LoopLevel(make_contents("", "__root", false, -1));
}

bool LoopLevel::defined() const {
    return contents_->var_name != kUndefined;
}

void LoopLevel::set(const LoopLevel &other) {
    user_assert(!contents_->locked) << "Cannot call set() on a locked LoopLevel: " << contents_->func_name << "."
                                    << contents_->var_name;
    LoopLevelContents copy = *other.contents_;
    copy.locked = false;
    *contents_ = copy;
    // Schedules holding this level now mean something else.
    mark_everything_changed();
}

LoopLevel &LoopLevel::lock() {
    contents_->locked = true;
    return *this;
}

bool LoopLevel::locked() const {
    return contents_->locked;
}

void LoopLevel::check_locked() const {
    user_assert(contents_->locked) << "Cannot inspect an unlocked LoopLevel: " << contents_->func_name << "."
                                   << contents_->var_name;
}

std::string LoopLevel::func() const {
    check_locked();
    return contents_->func_name;
}

VarOrRVar LoopLevel::var() const {
    check_locked();
    user_assert(defined() && !is_root() && !is_inlined())
        << "LoopLevel " << to_string() << " names no loop, so it has no var()";
    return VarOrRVar(contents_->var_name, contents_->is_rvar);
}

int LoopLevel::stage_index() const {
    check_locked();
    return contents_->stage_index;
}

bool LoopLevel::is_inlined() const {
    check_locked();
    return contents_->var_name == "__inlined";
}

bool LoopLevel::is_root() const {
    check_locked();
    return contents_->var_name == "__root";
}

std::string LoopLevel::to_string() const {
    check_locked();
    const LoopLevelContents &c = *contents_;
    if (c.stage_index >= 0) {
        return c.func_name + ".s" + std::to_string(c.stage_index) + "." + c.var_name;
    }
    return c.func_name + "." + c.var_name;
}

bool LoopLevel::match(const std::string &loop) const {
    check_locked();
    const LoopLevelContents &c = *contents_;
    if (c.func_name.empty()) {
        return false;
    }
    // Loop names are "<func>.s<stage>.<var>" (the var may be a split's "x.xi").
    std::string prefix = c.func_name + ".s";
    if (loop.compare(0, prefix.size(), prefix) != 0) {
        return false;
    }
    size_t dot = loop.find('.', prefix.size());
    if (dot == std::string::npos) {
        return false;
    }
    std::string stage = loop.substr(prefix.size(), dot - prefix.size());
    if (c.stage_index >= 0 && stage != std::to_string(c.stage_index)) {
        return false;
    }
    std::string var = loop.substr(dot + 1);
    return var == c.var_name ||
           (var.size() > c.var_name.size() &&
            var.compare(var.size() - c.var_name.size() - 1, std::string::npos, "." + c.var_name) == 0);
}

bool LoopLevel::match(const LoopLevel &other) const {
    check_locked();
    other.check_locked();
    const LoopLevelContents &a = *contents_, &b = *other.contents_;
    return a.func_name == b.func_name && a.var_name == b.var_name &&
           (a.stage_index == b.stage_index || a.stage_index == -1 || b.stage_index == -1);
}

bool LoopLevel::operator==(const LoopLevel &other) const {
    check_locked();
    other.check_locked();
    const LoopLevelContents &a = *contents_, &b = *other.contents_;
    return a.func_name == b.func_name && a.var_name == b.var_name && a.stage_index == b.stage_index;
}

// ---- Schedule calls taking a LoopLevel.

Func &Func::compute_at(const LoopLevel &loop_level) {
    f_->compute_level = loop_level.contents();
    mark_changed(*f_);
    return *this;
}

Func &Func::store_at(const LoopLevel &loop_level) {
    f_->store_level = loop_level.contents();
    mark_changed(*f_);
    return *this;
}

Func &Func::hoist_storage(const LoopLevel &loop_level) {
    f_->hoist_level = loop_level.contents();
    mark_changed(*f_);
    return *this;
}

namespace {

FuseLevel &fuse_of(FunctionContents &f, int stage) {
    return stage == 0 ? f.fuse : f.updates[(size_t)stage - 1].fuse;
}

std::vector<std::pair<std::string, LoopAlignStrategy>>
align_by_name(const std::vector<std::pair<VarOrRVar, LoopAlignStrategy>> &align) {
    std::vector<std::pair<std::string, LoopAlignStrategy>> named;
    for (const auto &[v, strategy] : align) {
        named.emplace_back(v.name(), strategy);
    }
    return named;
}

} // namespace

Stage &Stage::compute_with(const LoopLevel &loop_level,
                           const std::vector<std::pair<VarOrRVar, LoopAlignStrategy>> &align) {
    user_assert(path_.empty()) << "compute_with of " << name() << ": a specialization can't be computed with another "
                               << "stage (schedule the stage itself)";
    FuseLevel &fuse = fuse_of(*f_, stage_);
    fuse = FuseLevel();
    fuse.level = loop_level.contents();
    fuse.align = align_by_name(align);
    mark_changed(*f_);
    return *this;
}

// One strategy: for every fused loop.
Stage &Stage::compute_with(const LoopLevel &loop_level, LoopAlignStrategy align) {
    compute_with(loop_level, std::vector<std::pair<VarOrRVar, LoopAlignStrategy>>{});
    fuse_of(*f_, stage_).all = align;
    return *this;
}

Stage &Stage::compute_with(const Stage &s, const VarOrRVar &var,
                           const std::vector<std::pair<VarOrRVar, LoopAlignStrategy>> &align) {
    user_assert(path_.empty()) << "compute_with of " << name() << ": a specialization can't be computed with another "
                               << "stage (schedule the stage itself)";
    user_assert(s.f_ != f_) << "Cannot schedule " << name() << " to be computed with " << s.f_->name << ".s" << s.stage_
                            << "." << var.name();
    FuseLevel &fuse = fuse_of(*f_, stage_);
    fuse = FuseLevel();
    fuse.parent_func = s.f_->name;
    fuse.parent_stage = s.stage_;
    fuse.var = var.name();
    fuse.align = align_by_name(align);
    // The parent must outlive this schedule's reference to it by name.
    f_->referenced.push_back(s.f_);
    mark_changed(*f_);
    return *this;
}

Stage &Stage::compute_with(const Stage &s, const VarOrRVar &var, LoopAlignStrategy align) {
    compute_with(s, var, std::vector<std::pair<VarOrRVar, LoopAlignStrategy>>{});
    fuse_of(*f_, stage_).all = align;
    return *this;
}

Func &Func::compute_with(const LoopLevel &loop_level,
                         const std::vector<std::pair<VarOrRVar, LoopAlignStrategy>> &align) {
    Stage(f_, 0).compute_with(loop_level, align);
    return *this;
}

Func &Func::compute_with(const LoopLevel &loop_level, LoopAlignStrategy align) {
    Stage(f_, 0).compute_with(loop_level, align);
    return *this;
}

Func &Func::compute_with(const Stage &s, const VarOrRVar &var,
                         const std::vector<std::pair<VarOrRVar, LoopAlignStrategy>> &align) {
    Stage(f_, 0).compute_with(s, var, align);
    return *this;
}

Func &Func::compute_with(const Stage &s, const VarOrRVar &var, LoopAlignStrategy align) {
    Stage(f_, 0).compute_with(s, var, align);
    return *this;
}

} // namespace Halide
