// See Prefetch.h.
#include "lower/Prefetch.h"

#include <set>

#include "Halide/Error.h"
#include "Halide/IRMutator.h"
#include "Halide/IROperator.h"
#include "Halide/IRPrinter.h"
#include "Halide/IRVisitor.h"
#include "Halide/Simplify.h"
#include "ir/Substitute.h"

namespace Halide {
namespace Internal {
namespace {

// One PrefetchRecord, with the names of its loops: `at`, and those `from`
// may be (a specialization's loops may have other names).
struct Wanted {
    PrefetchRecord record;
    std::string at_loop;
    std::set<std::string> from_loops;
};

// The loops of stage `stage` of f that the schedule calls `var` (a split's
// outer loop keeping the name is `var$o`; see Stage::split), in every
// specialization; the plain loop name when no dimension is called so.
std::set<std::string> loops_named(const FunctionContents &f, int stage, const std::string &var) {
    std::set<std::string> loops;
    for_each_stage_dim(f, stage, [&](const LoopDim &d) {
        if (d.name == var) {
            loops.insert(loop_var_name(f.name, d.var, stage));
        }
    });
    if (loops.empty()) {
        loops.insert(loop_var_name(f.name, var, stage));
    }
    return loops;
}

// How the body of a loop reads `name`: its call type, and the Call of each
// value read (a Tuple-valued Func's values are separate buffers).
class FindReads : public IRVisitor {
public:
    explicit FindReads(const std::string &name) : name_(name) {}
    std::map<int, const Call *> by_value;
    using IRVisitor::visit;
    void visit(const Call *op) override {
        IRVisitor::visit(op);
        if ((op->call_type == Call::Halide || op->call_type == Call::Image) && op->name == name_) {
            by_value.emplace(op->value_index, op);
        }
    }

private:
    const std::string &name_;
};

class InjectPrefetches : public IRMutator {
public:
    explicit InjectPrefetches(const Environment &env) {
        for (const auto &[name, f] : env) {
            for (const PrefetchRecord &p : f->prefetches) {
                std::set<std::string> from = loops_named(*f, p.stage, p.from);
                for (const std::string &at : loops_named(*f, p.stage, p.at)) {
                    wanted_[at].push_back({p, at, from});
                }
            }
        }
    }

    using IRMutator::visit;

    Stmt visit(const LetStmt *op) override {
        frames_.push_back({false, op->name, op->value});
        Stmt body = mutate(op->body);
        frames_.pop_back();
        return body.same_as(op->body) ? self_stmt(op) : LetStmt::make(op->name, op->value, body);
    }

    Stmt visit(const Realize *op) override {
        realized_[op->name].push_back(op);
        Stmt s = IRMutator::visit(op);
        realized_[op->name].pop_back();
        return s;
    }

    Stmt visit(const For *op) override {
        frames_.push_back({true, op->name, Expr()});
        Stmt body = mutate(op->body);
        frames_.pop_back();
        auto it = wanted_.find(op->name);
        if (it != wanted_.end()) {
            std::vector<Stmt> stmts;
            for (const Wanted &w : it->second) {
                Stmt p = prefetch(w, op);
                if (p.defined()) {
                    stmts.push_back(p);
                }
            }
            if (!stmts.empty() && op->for_type == ForType::Vectorized) {
                // All lanes at once, before the vector loop.
                stmts.push_back(For::make(op->name, op->min, op->extent, op->for_type, body));
                return Block::make(stmts);
            }
            if (!stmts.empty()) {
                stmts.push_back(body);
                body = Block::make(stmts);
            }
        }
        return body.same_as(op->body) ? self_stmt(op) : For::make(op->name, op->min, op->extent, op->for_type, body);
    }

private:
    // A loop or a LetStmt around the statement being visited.
    struct Frame {
        bool loop;
        std::string name;
        Expr value;
    };

    // The prefetch statement `w` asks for at the top of `loop`'s body, or
    // undefined (dropped, with a warning).
    Stmt prefetch(const Wanted &w, const For *loop) {
        const std::string &g = w.record.name;
        // The lets between the loop `from` and `at`: the region is written
        // in the variables outside `from` (and the two loops' own).
        size_t first_let = frames_.size();
        std::string from_loop = w.at_loop;
        if (!w.from_loops.count(w.at_loop)) {
            bool found = false;
            for (size_t i = frames_.size(); i-- > 0 && !found;) {
                if (frames_[i].loop && w.from_loops.count(frames_[i].name)) {
                    first_let = i + 1;
                    from_loop = frames_[i].name;
                    found = true;
                }
            }
            user_assert(found) << "Prefetch 'from' variable '" << w.record.from
                               << "' could not be found in an active loop around the loop over '" << w.record.at
                               << "' (Are the 'at' and 'from' variables swapped?)";
        }

        auto dropped = [&](const std::string &why) {
            user_warning << "Removing prefetch of " << g << " at loop " << loop->name << ": " << why << "\n";
            return Stmt();
        };
        FindReads reads(g);
        loop->body.accept(&reads);
        auto boxes = boxes_required(loop->body);
        auto box_it = boxes.find(g);
        if (reads.by_value.empty() || box_it == boxes.end()) {
            user_warning << "Removing prefetch of " << g << " at loop " << loop->name << " from loop " << from_loop
                         << " + " << w.record.offset
                         << ": the loop does not read it, so the prefetched area would always be empty.\n";
            return Stmt();
        }
        const Call *sample = reads.by_value.begin()->second;
        // The region g's storage covers: its realization, or its buffer.
        std::vector<Interval> edges;
        if (sample->call_type == Call::Halide) {
            auto r = realized_.find(g);
            if (r == realized_.end() || r->second.empty()) {
                return dropped(g + " is not stored around that loop (it is computed inside it, or is an output).");
            }
            for (const Range &b : r->second.back()->bounds) {
                edges.push_back({b.min, simplify(b.min + b.extent - 1)});
            }
        } else {
            for (size_t d = 0; d < box_it->second.size(); d++) {
                Expr mn = buffer_field(g, "min", (int)d);
                edges.push_back({mn, mn + buffer_field(g, "extent", (int)d) - 1});
            }
        }
        Box box = box_it->second;
        internal_assert(box.size() == edges.size()) << "prefetch of " << g << ": dimensions differ";

        Expr offset = w.record.offset.type() == Int(32) ? w.record.offset : cast(Int(32), w.record.offset);
        std::map<std::string, Expr> later = {{from_loop, Variable::make(Int(32), from_loop) + offset}};
        auto shifted = [&](Expr e) {
            for (size_t i = frames_.size(); i-- > first_let;) {
                if (!frames_[i].loop) {
                    e = substitute({{frames_[i].name, frames_[i].value}}, e);
                }
            }
            return simplify(substitute(later, e));
        };

        std::vector<Expr> mins, extents;
        Expr inside = const_true();
        for (size_t d = 0; d < box.size(); d++) {
            const std::string unbounded = "the region read is not bounded in dimension " + std::to_string(d) + ".";
            if (!box[d].is_bounded()) {
                return dropped(unbounded);
            }
            Expr mn = shifted(box[d].min), mx = shifted(box[d].max);
            if (loop->for_type == ForType::Vectorized) {
                // The region of every lane (the prefetch goes before the loop).
                Scope lanes = {{loop->name, {loop->min, simplify(loop->min + loop->extent - 1)}}};
                mn = simplify(bounds_of_expr(mn, lanes).min);
                mx = simplify(bounds_of_expr(mx, lanes).max);
                if (!mn.defined() || !mx.defined()) {
                    return dropped(unbounded);
                }
            }
            switch (w.record.strategy) {
            case PrefetchBoundStrategy::Clamp:
                mn = simplify(max(mn, edges[d].min));
                mx = simplify(min(mx, edges[d].max));
                break;
            case PrefetchBoundStrategy::GuardWithIf: inside = inside && edges[d].min <= mn && mx <= edges[d].max; break;
            case PrefetchBoundStrategy::NonFaulting: break;
            }
            mins.push_back(mn);
            extents.push_back(simplify(mx - mn + 1));
        }

        std::vector<Stmt> stmts;
        for (const auto &[index, call] : reads.by_value) {
            std::vector<Expr> args = {
                Call::make(call->type.element_of(), g, mins, call->call_type, index, call->callee)};
            args.insert(args.end(), extents.begin(), extents.end());
            stmts.push_back(
                Evaluate::make(Call::make(call->type.element_of(), kPrefetchIntrinsic, args, Call::Intrinsic)));
        }
        Stmt s = Block::make(stmts);
        if (w.record.strategy == PrefetchBoundStrategy::GuardWithIf) {
            s = IfThenElse::make(simplify(inside), s);
        }
        return s;
    }

    std::map<std::string, std::vector<Wanted>> wanted_; // by the loop `at`
    std::vector<Frame> frames_;                         // outermost first
    std::map<std::string, std::vector<const Realize *>> realized_;
};

} // namespace

Stmt inject_prefetches(const Stmt &s, const Environment &env) {
    bool any = false;
    for (const auto &[name, f] : env) {
        any = any || !f->prefetches.empty();
    }
    return any ? InjectPrefetches(env).mutate(s) : s;
}

} // namespace Internal
} // namespace Halide
