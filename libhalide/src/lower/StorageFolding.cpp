// See Passes.h: storage folding.
//
// A realization of g whose every access (computation and reads) happens in
// one serial loop L directly inside it is folded along dimension d when,
// within each iteration of L, the accesses to g along d span at most F
// coordinates [lo(i), hi(i)] and both ends move one way as L's variable i
// grows. Then g is stored in F coordinates along d (F rounded up to a power
// of two) and coordinate c lives at c mod F (c & (F - 1)):
//
//   let g.min.1 = 0; let g.extent.1 = 4
//   realize g(.., [0, 4]) { for (i, ...) { ... g(x, c & 3) ... } }
//
// Why no value is overwritten while still needed (forward case): a
// coordinate c written in iteration k and read in iteration j >= k lies in
// [lo(j), hi(j)] and [lo(k), hi(k)]. Another coordinate c' = c + nF written
// in between (iteration m in [k, j]) would lie in [lo(m), hi(m)]: for n > 0,
// c' > hi(j) >= hi(m); for n < 0, c' < lo(k) <= lo(m). Both impossible.
//
// With sliding window (SlidingWindow.cpp, just before), a line buffer's
// storage thus becomes the few rows its consumer's stencil reads.
// Func::fold_storage(d, F, forward) asks for a fold of F (not rounded); it
// is refused at compile time when the accesses do not move that way or need
// more than F coordinates, and checked at run time when their span is not a
// constant.
#include <algorithm>

#include "Halide/Error.h"
#include "Halide/IRMutator.h"
#include "Halide/IROperator.h"
#include "Halide/IRPrinter.h"
#include "Halide/IRVisitor.h"
#include "Halide/Simplify.h"
#include "analysis/Monotonic.h"
#include "ir/Substitute.h"
#include "lower/Passes.h"

namespace Halide {
namespace Internal {
namespace {

// The loops directly inside a statement (not nested in another loop) that
// access g, and whether anything accesses g outside every loop or uses its
// storage's fields (g.min.d, g.extent.d, g.stride.d, the buffer g), whose
// meaning the fold changes.
class TopLoops : public IRVisitor {
public:
    explicit TopLoops(const std::string &g) : g_(g) {}
    std::vector<const For *> loops;
    bool outside = false, other_use = false;

    using IRVisitor::visit;
    void visit(const For *op) override {
        if (depth_ == 0) {
            bool before = accessed_;
            accessed_ = false;
            depth_++;
            IRVisitor::visit(op);
            depth_--;
            if (accessed_) {
                loops.push_back(op);
            }
            accessed_ = before || accessed_;
            return;
        }
        IRVisitor::visit(op);
    }
    void visit(const Provide *op) override {
        note(op->name);
        IRVisitor::visit(op);
    }
    void visit(const Call *op) override {
        if (op->call_type == Call::Halide) {
            note(op->name);
        }
        IRVisitor::visit(op);
    }
    void visit(const Variable *op) override {
        if (op->name == g_ || op->name == g_ + ".buffer") {
            other_use = true;
        }
        for (const char *field : {".min.", ".extent.", ".stride."}) {
            std::string prefix = g_ + field;
            other_use = other_use || op->name.compare(0, prefix.size(), prefix) == 0;
        }
    }

private:
    void note(const std::string &name) {
        if (name == g_) {
            accessed_ = true;
            outside = outside || depth_ == 0;
        }
    }
    std::string g_;
    int depth_ = 0;
    bool accessed_ = false;
};

// Every access of g with coordinate d folded.
class FoldAccesses : public IRMutator {
public:
    FoldAccesses(const std::string &g, int dim, int64_t factor) : g_(g), dim_(dim), factor_(factor) {}
    using IRMutator::visit;
    Stmt visit(const Provide *op) override {
        Stmt s = IRMutator::visit(op);
        if (op->name != g_) {
            return s;
        }
        const Provide *p = s.as<Provide>();
        std::vector<Expr> args = p->args;
        args[dim_] = fold(args[dim_]);
        return Provide::make(p->name, p->values, args);
    }
    Expr visit(const Call *op) override {
        Expr e = IRMutator::visit(op);
        if (op->call_type != Call::Halide || op->name != g_) {
            return e;
        }
        const Call *c = e.as<Call>();
        std::vector<Expr> args = c->args;
        args[dim_] = fold(args[dim_]);
        return Call::make(c->type, c->name, args, c->call_type, c->value_index, c->callee);
    }

private:
    Expr fold(const Expr &c) const {
        Expr f = IntImm::make(Int(32), factor_);
        if ((factor_ & (factor_ - 1)) == 0) {
            return Call::make(Int(32), Intrinsics::bitwise_and, {c, IntImm::make(Int(32), factor_ - 1)},
                              Call::Intrinsic);
        }
        return Mod::make(c, f); // rounds towards minus infinity: in [0, factor)
    }
    std::string g_;
    int dim_;
    int64_t factor_;
};

int64_t next_power_of_two(int64_t v) {
    int64_t p = 1;
    while (p < v) {
        p *= 2;
    }
    return p;
}

class Fold : public IRMutator {
public:
    Fold(const Environment &env, std::set<std::string> *run_ahead) : env_(env), run_ahead_(run_ahead) {}
    using IRMutator::visit;

    Stmt visit(const Realize *op) override {
        Stmt body = mutate(op->body);
        auto f = env_.find(op->name);
        Stmt unchanged = body.same_as(op->body) ? self_stmt(op) : Realize::make(op->name, op->types, op->bounds, body);
        if (f == env_.end()) {
            return unchanged;
        }
        const FunctionContents &g = *f->second;
        std::string explicit_why;
        Stmt s = try_fold(g, op, body, explicit_why);
        if (!s.defined()) {
            user_assert(g.storage_folds.empty() || explicit_why.empty())
                << "Can't fold the storage of Func '" << g.name << "' as fold_storage() asks: " << explicit_why;
            return unchanged;
        }
        return s;
    }

private:
    // The realization folded, or undefined (with `why` set if an explicit
    // fold_storage() could not be honoured).
    Stmt try_fold(const FunctionContents &g, const Realize *op, const Stmt &body, std::string &why) {
        TopLoops top(g.name);
        top.include(body);
        if (top.outside || top.loops.size() != 1 || top.other_use) {
            why = "it is not accessed within a single loop inside its storage (store it further out than where "
                  "it is computed, and use it in one loop only)";
            return Stmt();
        }
        const For *loop = top.loops[0];
        if (loop->for_type != ForType::Serial && loop->for_type != ForType::Unrolled) {
            why = "the loop over " + loop->name + " that accesses it is not serial";
            return Stmt();
        }
        auto boxes = boxes_touched(loop->body);
        auto found = boxes.find(g.name);
        if (found == boxes.end()) {
            why = "the loop over " + loop->name + " does not access it";
            return Stmt();
        }
        // Outermost storage dimension first: folding it saves the most.
        std::vector<int> dims;
        for (int d = (int)g.args.size(); d-- > 0;) {
            dims.push_back(d);
        }
        if (!g.storage_folds.empty()) {
            dims.clear();
            for (int d = 0; d < (int)g.args.size(); d++) {
                if (g.storage_folds.count(g.args[d])) {
                    dims.push_back(d);
                }
            }
        }
        for (int d : dims) {
            const Interval &i = found->second[d];
            if (!i.is_bounded()) {
                why = "the coordinates of dimension '" + g.args[d] + "' accessed by the loop over " + loop->name +
                      " are unbounded";
                continue;
            }
            Monotonic lo = is_monotonic(i.min, loop->name), hi = is_monotonic(i.max, loop->name);
            auto up = [](Monotonic m) { return m == Monotonic::Increasing || m == Monotonic::Constant; };
            auto down = [](Monotonic m) { return m == Monotonic::Decreasing || m == Monotonic::Constant; };
            bool forward = up(lo) && up(hi), backward = down(lo) && down(hi);
            Expr span = simplify(Add::make(Sub::make(i.max, i.min), IntImm::make(Int(32), 1)));
            const IntImm *constant = span.as<IntImm>();
            // An async producer runs an iteration ahead of its consumer: the
            // coordinates of two consecutive iterations must fit.
            Expr next = Add::make(Variable::make(Int(32), loop->name), IntImm::make(Int(32), 1));
            auto at_next = [&](const Expr &e) { return substitute({{loop->name, next}}, e); };
            Expr span2 = simplify(forward ? Add::make(Sub::make(at_next(i.max), i.min), IntImm::make(Int(32), 1))
                                          : Add::make(Sub::make(i.max, at_next(i.min)), IntImm::make(Int(32), 1)));
            const IntImm *constant2 = g.async ? span2.as<IntImm>() : nullptr;
            auto spec = g.storage_folds.find(g.args[d]);
            if (spec == g.storage_folds.end()) {
                if (lo == Monotonic::Constant && hi == Monotonic::Constant) {
                    continue; // the same coordinates every iteration: nothing to fold away
                }
                if ((forward || backward) && constant && constant->value > 0) {
                    int64_t factor = next_power_of_two(constant->value);
                    if (constant2 && constant2->value > 0 && run_ahead_) {
                        factor = next_power_of_two(constant2->value);
                        run_ahead_->insert(g.name);
                    }
                    return apply(g, op, body, loop, d, factor, Stmt());
                }
                continue;
            }
            int64_t factor = spec->second.first.as<IntImm>()->value;
            bool want_forward = spec->second.second;
            user_assert(want_forward ? forward : backward)
                << "Can't fold the storage of Func '" << g.name << "' along dimension '" << g.args[d]
                << "' as fold_storage() asks: the coordinates the loop over " << loop->name << " accesses (" << i.min
                << " to " << i.max << ") do not move towards " << (want_forward ? "larger" : "smaller")
                << " values as it runs"
                << (want_forward && backward ? " (they move backwards: pass fold_forward=false)" : "")
                << (!want_forward && forward ? " (they move forwards: pass fold_forward=true)" : "");
            user_assert(!constant || constant->value <= factor)
                << "The fold factor (" << factor << ") of dimension " << g.args[d] << " of " << g.name
                << " is too small to store the required region accessed by loop " << loop->name << " ("
                << constant->value << ")";
            Stmt check;
            if (!constant) {
                check = AssertStmt::make(LE::make(span, IntImm::make(Int(32), factor)),
                                         Call::make(Int(32), "halide_error_fold_factor_too_small",
                                                    {Variable::make(Handle(), "__user_context"),
                                                     StringImm::make(g.name), StringImm::make(g.args[d]),
                                                     IntImm::make(Int(32), factor), StringImm::make(loop->name), span},
                                                    Call::Extern));
            }
            if (constant2 && constant2->value <= factor && run_ahead_) {
                run_ahead_->insert(g.name);
            }
            return apply(g, op, body, loop, d, factor, check);
        }
        return Stmt();
    }

    // g's realization stored in `factor` coordinates along d; `check` (if
    // any) opens each iteration of the loop.
    Stmt apply(const FunctionContents &g, const Realize *op, const Stmt &body, const For *loop, int d, int64_t factor,
               const Stmt &check) {
        Stmt folded = FoldAccesses(g.name, d, factor).mutate(body);
        if (check.defined()) {
            class AddCheck : public IRMutator {
            public:
                AddCheck(const For *loop, Stmt check) : loop_(loop), check_(std::move(check)) {}
                using IRMutator::visit;
                Stmt visit(const For *op) override {
                    if (op->name != loop_->name) {
                        return IRMutator::visit(op);
                    }
                    return For::make(op->name, op->min, op->extent, op->for_type, Block::make(check_, op->body));
                }

            private:
                const For *loop_;
                Stmt check_;
            };
            // The check uses the loop's variable and names from outside it.
            folded = AddCheck(loop, check).mutate(folded);
        }
        std::vector<Range> bounds = op->bounds;
        bounds[d] = {IntImm::make(Int(32), 0), IntImm::make(Int(32), factor)};
        Stmt s = Realize::make(op->name, op->types, bounds, folded);
        // StorageFlattening indexes with g.min.d and strides from g.extent.d.
        s = LetStmt::make(g.name + ".extent." + std::to_string(d), IntImm::make(Int(32), factor), s);
        return LetStmt::make(g.name + ".min." + std::to_string(d), IntImm::make(Int(32), 0), s);
    }

    const Environment &env_;
    std::set<std::string> *run_ahead_;
};

} // namespace

Stmt storage_folding(const Stmt &s, const Environment &env, std::set<std::string> *run_ahead) {
    return Fold(env, run_ahead).mutate(s);
}

} // namespace Internal
} // namespace Halide
