// See Function.h. The registries hold weak pointers: an object disappears
// from them when its last handle is destroyed.
#include "Function.h"

#include "Halide/Error.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <iterator>

namespace Halide {
namespace Internal {
namespace {

std::atomic<uint64_t> change_counter{0};
std::atomic<uint64_t> global_change{0};

struct Registry {
    std::mutex mutex;
    std::map<std::string, std::weak_ptr<void>> names; // every live named object
    std::map<std::string, std::weak_ptr<FunctionContents>> functions;
    std::map<std::string, std::weak_ptr<InputBufferContents>> buffers;
    std::map<std::string, std::weak_ptr<ParamContents>> params;
    std::map<std::string, std::weak_ptr<ReductionDomainContents>> rdoms;
    size_t sweep_at = 1024; // sweep expired entries when `names` grows this big
};

Registry &registry() {
    static Registry *r = new Registry; // never destroyed: handles may outlive statics
    return *r;
}

template <typename T> std::shared_ptr<T> find(std::map<std::string, std::weak_ptr<T>> &table, const std::string &name) {
    std::lock_guard<std::mutex> lock(registry().mutex);
    auto it = table.find(name);
    return it == table.end() ? nullptr : it->second.lock();
}

template <typename T> void erase_expired(std::map<std::string, std::weak_ptr<T>> &table) {
    for (auto it = table.begin(); it != table.end();) {
        it = it->second.expired() ? table.erase(it) : std::next(it);
    }
}

// Drops the entries of destroyed objects once the tables have doubled since
// the last sweep, so a long-running process that creates many Funcs does
// not grow them forever (amortized constant cost per registration).
void sweep_locked(Registry &r) {
    if (r.names.size() < r.sweep_at) {
        return;
    }
    erase_expired(r.names);
    erase_expired(r.functions);
    erase_expired(r.buffers);
    erase_expired(r.params);
    erase_expired(r.rdoms);
    r.sweep_at = std::max<size_t>(1024, 2 * r.names.size());
}

template <typename T> void add(std::map<std::string, std::weak_ptr<T>> &table, const std::shared_ptr<T> &p) {
    std::lock_guard<std::mutex> lock(registry().mutex);
    table[p->name] = p;
    registry().names[p->name] = std::static_pointer_cast<void>(p);
    sweep_locked(registry());
}

} // namespace

std::string unique_name(const std::string &requested) {
    Registry &r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    std::string name = requested;
    for (int n = 1;; n++) {
        auto it = r.names.find(name);
        if (it == r.names.end() || it->second.expired()) {
            // Reserve it until the object registers itself.
            static std::shared_ptr<int> placeholder = std::make_shared<int>(0);
            r.names[name] = placeholder;
            return name;
        }
        name = requested + "$" + std::to_string(n);
    }
}

std::string fresh_name(char prefix) {
    static std::atomic<int> counter{0};
    return unique_name(std::string(1, prefix) + std::to_string(counter++));
}

void register_function(const FunctionPtr &f) {
    add(registry().functions, f);
}
void register_reduction_domain(const ReductionDomainPtr &r) {
    add(registry().rdoms, r);
}
ReductionDomainPtr find_reduction_domain_of(const std::string &var, int *index) {
    size_t dot = var.rfind('.');
    if (dot == std::string::npos) {
        return nullptr;
    }
    ReductionDomainPtr r = find(registry().rdoms, var.substr(0, dot));
    if (!r) {
        return nullptr;
    }
    for (size_t i = 0; i < r->domain.size(); i++) {
        if (r->domain[i].var == var) {
            if (index) {
                *index = (int)i;
            }
            return r;
        }
    }
    return nullptr;
}
void register_input_buffer(const InputBufferPtr &b) {
    add(registry().buffers, b);
}
void register_param(const ParamPtr &p) {
    add(registry().params, p);
}
std::string input_buffer_of_field(const std::string &var) {
    for (const char *field : {".min.", ".extent.", ".max.", ".stride."}) {
        size_t at = var.rfind(field);
        if (at == std::string::npos || at == 0) {
            continue;
        }
        std::string dim = var.substr(at + std::strlen(field));
        if (dim.empty() || dim.find_first_not_of("0123456789") != std::string::npos) {
            continue;
        }
        std::string buffer = var.substr(0, at);
        if (find_input_buffer(buffer)) {
            return buffer;
        }
    }
    return std::string();
}

size_t registered_name_count() {
    std::lock_guard<std::mutex> lock(registry().mutex);
    return registry().names.size();
}

bool stored_apart(const FunctionContents &g) {
    if (g.compute != ComputeLevel::At || g.store == ComputeLevel::Inlined) {
        return false; // compute_root stores at the root; inline Funcs have no storage
    }
    return g.store == ComputeLevel::Root || g.store_at_func != g.compute_at_func || g.store_at_var != g.compute_at_var;
}

FunctionPtr find_function(const std::string &name) {
    return find(registry().functions, name);
}
InputBufferPtr find_input_buffer(const std::string &name) {
    return find(registry().buffers, name);
}
ParamPtr find_param(const std::string &name) {
    return find(registry().params, name);
}

uint64_t latest_change_stamp() {
    return change_counter.load();
}

void mark_changed(FunctionContents &f) {
    f.stamp = ++change_counter;
}

void mark_everything_changed() {
    global_change = ++change_counter;
}

uint64_t everything_changed_stamp() {
    return global_change.load();
}

} // namespace Internal
} // namespace Halide

namespace Halide {
namespace Internal {
namespace {

// A LoopLevel's contents as the schedule fields say it: Inlined, Root or
// At (func, var, stage). Locks it, as upstream's lowering does.
void resolve_level(const std::shared_ptr<LoopLevelContents> &level, ComputeLevel &kind, std::string &func,
                   std::string &var, int &stage) {
    if (!level) {
        return;
    }
    user_assert(level->var_name != "__undefined_loop_level_var_name")
        << "There should be no undefined LoopLevels at the start of lowering. (Did you mean to use "
           "LoopLevel::inlined() instead of LoopLevel() ?)";
    level->locked = true;
    if (level->var_name == "__root") {
        kind = ComputeLevel::Root;
    } else if (level->var_name == "__inlined") {
        kind = ComputeLevel::Inlined;
    } else {
        kind = ComputeLevel::At;
        func = level->func_name;
        var = level->var_name;
        stage = level->stage_index;
    }
}

void resolve_fuse(FuseLevel &fuse) {
    if (!fuse.level) {
        return;
    }
    ComputeLevel kind = ComputeLevel::Inlined;
    std::string func, var;
    int stage = -1;
    resolve_level(fuse.level, kind, func, var, stage);
    user_assert(kind == ComputeLevel::At)
        << "Invalid compute_with: the LoopLevel given is " << (kind == ComputeLevel::Root ? "root" : "inlined")
        << "; it must name a loop of another stage";
    fuse.parent_func = func;
    fuse.var = var;
    fuse.parent_stage = stage >= 0 ? stage : 0; // no stage given: the pure definition, as Func's Stage is
}

} // namespace

void resolve_loop_levels(FunctionContents &f) {
    resolve_level(f.compute_level, f.compute, f.compute_at_func, f.compute_at_var, f.compute_at_stage);
    resolve_level(f.store_level, f.store, f.store_at_func, f.store_at_var, f.store_at_stage);
    resolve_level(f.hoist_level, f.hoist, f.hoist_at_func, f.hoist_at_var, f.hoist_at_stage);
    resolve_fuse(f.fuse);
    for (UpdateDefinition &u : f.updates) {
        resolve_fuse(u.fuse);
    }
}

} // namespace Internal
} // namespace Halide
