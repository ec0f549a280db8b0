// See Passes.h. An Allocate of a Func with hoist_storage() moves out to the
// loop (or the outermost loop, for hoist_storage_root) it is hoisted to.
// Its extents become their upper bounds over the loops it leaves (the lets
// it leaves substituted first), so one block serves every iteration; the
// indexing inside stays per iteration.
#include <map>
#include <string>
#include <vector>

#include "Halide/Error.h"
#include "Halide/IRMutator.h"
#include "Halide/IROperator.h"
#include "Halide/IRPrinter.h"
#include "Halide/Simplify.h"
#include "analysis/Interval.h"
#include "ir/Substitute.h"
#include "lower/Passes.h"

namespace Halide {
namespace Internal {
namespace {

class HoistStorage : public IRMutator {
public:
    explicit HoistStorage(const Environment &env) : env_(env) {
        for (const auto &[name, f] : env) {
            if (f->hoist == ComputeLevel::Inlined) {
                continue;
            }
            if (f->values.size() > 1) {
                for (size_t i = 0; i < f->values.size(); i++) {
                    hoisted_[name + "." + std::to_string(i)] = f.get();
                }
            } else {
                hoisted_[name] = f.get();
            }
        }
    }
    using IRMutator::visit;

    Stmt visit(const For *op) override {
        frames_.push_back({op, nullptr});
        Stmt body = mutate(op->body);
        frames_.pop_back();
        body = wrap(op, body);
        Stmt s = body.same_as(op->body) ? self_stmt(op) : For::make(op->name, op->min, op->extent, op->for_type, body);
        if (outermost_loop() == nullptr) {
            s = wrap(nullptr, s); // the outermost loop: hoist_storage_root()'s allocations go around it
        }
        return s;
    }

    Stmt visit(const LetStmt *op) override {
        frames_.push_back({nullptr, op});
        Stmt body = mutate(op->body);
        frames_.pop_back();
        return body.same_as(op->body) ? self_stmt(op) : LetStmt::make(op->name, op->value, body);
    }

    Stmt visit(const Allocate *op) override {
        auto h = hoisted_.find(op->name);
        if (h == hoisted_.end()) {
            return IRMutator::visit(op);
        }
        const FunctionContents &f = *h->second;
        // The frames the allocation leaves: those inside the target loop
        // (for the root: inside the outermost loop).
        int target = -1;
        for (int i = (int)frames_.size() - 1; i >= 0; i--) {
            const For *loop = frames_[i].loop;
            if (!loop) {
                continue;
            }
            if (f.hoist == ComputeLevel::Root ? loop == outermost_loop() : is_target(f, loop->name)) {
                target = i;
                break;
            }
        }
        if (target < 0) {
            user_assert(f.hoist == ComputeLevel::Root)
                << "Func '" << f.name << "' has its storage hoisted to loop '" << f.hoist_at_var << "' of Func '"
                << f.hoist_at_func << "', which is not around where it is stored";
            return IRMutator::visit(op); // in no loop: already at the root
        }
        // Inside the target loop (hoist_storage), or around it (the root).
        int stop = f.hoist == ComputeLevel::Root ? target - 1 : target;
        std::vector<Expr> extents;
        for (Expr e : op->extents) {
            extents.push_back(upper_bound(f, e, stop));
        }
        const For *where = f.hoist == ComputeLevel::Root ? nullptr : frames_[target].loop;
        pending_[where].push_back({op->name, op->type, op->memory_type, extents});
        return mutate(op->body);
    }

private:
    struct Frame {
        const For *loop;
        const LetStmt *let;
    };
    struct Hoisted {
        std::string name;
        Type type;
        MemoryType memory_type;
        std::vector<Expr> extents;
    };

    const For *outermost_loop() const {
        for (const Frame &f : frames_) {
            if (f.loop) {
                return f.loop;
            }
        }
        return nullptr;
    }

    // Whether `loop` is the loop hoist_storage() named (in any stage of its Func).
    bool is_target(const FunctionContents &f, const std::string &loop) const {
        auto c = env_.find(f.hoist_at_func);
        if (c == env_.end()) {
            return false;
        }
        for (int stage = 0; stage <= (int)c->second->updates.size(); stage++) {
            if (f.hoist_at_stage >= 0 && stage != f.hoist_at_stage) {
                continue;
            }
            const std::vector<LoopDim> &dims = stage == 0 ? c->second->dims : c->second->updates[stage - 1].dims;
            for (const LoopDim &d : dims) {
                if (d.name == f.hoist_at_var && loop == loop_var_name(f.hoist_at_func, d.var, stage)) {
                    return true;
                }
            }
        }
        return false;
    }

    // e's largest value over the frames inside frames_[stop] (innermost first).
    Expr upper_bound(const FunctionContents &f, Expr e, int stop) const {
        for (int i = (int)frames_.size() - 1; i > stop; i--) {
            if (const LetStmt *let = frames_[i].let) {
                e = substitute({{let->name, let->value}}, e);
                continue;
            }
            const For *loop = frames_[i].loop;
            // Upstream's words.
            user_assert(loop->for_type != ForType::Parallel)
                << "Func \"" << f.name << "\" storage is hoisted outside the parallel loop over " << loop->name
                << " but computed within it. This is a potential race condition.";
            Scope scope;
            scope[loop->name] = {loop->min, simplify(loop->min + loop->extent - 1)};
            Interval b = bounds_of_expr(simplify(e), scope);
            user_assert(b.max.defined()) << "Can't hoist storage of Func '" << f.name << "' out of loop " << loop->name
                                         << ": its size " << e << " has no upper bound there";
            e = b.max;
        }
        return simplify(e);
    }

    Stmt wrap(const For *loop, Stmt body) {
        auto p = pending_.find(loop);
        if (p == pending_.end()) {
            return body;
        }
        for (auto h = p->second.rbegin(); h != p->second.rend(); ++h) {
            body = Allocate::make(h->name, h->type, h->memory_type, h->extents, body);
        }
        pending_.erase(p);
        return body;
    }

    const Environment &env_;
    std::map<std::string, const FunctionContents *> hoisted_;
    std::vector<Frame> frames_;
    std::map<const For *, std::vector<Hoisted>> pending_;
};

} // namespace

Stmt hoist_storage(const Stmt &s, const Environment &env) {
    return HoistStorage(env).mutate(s);
}

} // namespace Internal
} // namespace Halide
