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
#include <set>
#include <sstream>
#include <string>

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

// An accessed coordinate for an error message: simplified, and only its
// size when it stays too long to read.
std::string brief(const Expr &e) {
    std::ostringstream text;
    text << simplify(e);
    std::string t = text.str();
    return t.size() <= 240 ? t : "an expression of " + std::to_string(t.size()) + " characters";
}

// Whether `op` is a buffer_make of (a region of) g's storage, as an extern
// stage passes it (ExternStages.cpp: host g.host or g.<i>.host, offset the
// sum of (min - g.min.d) * g.stride.d).
bool is_storage_buffer(const Call *op, const std::string &g) {
    if (op->call_type != Call::Intrinsic || op->name != "buffer_make" || op->args.size() < 6) {
        return false;
    }
    const Variable *host = op->args[0].as<Variable>();
    if (!host) {
        return false;
    }
    const std::string &n = host->name;
    if (n == g + ".host") {
        return true;
    }
    const std::string suffix = ".host";
    if (n.size() <= g.size() + suffix.size() + 1 || n.compare(0, g.size() + 1, g + ".") != 0 ||
        n.compare(n.size() - suffix.size(), suffix.size(), suffix) != 0) {
        return false;
    }
    std::string index = n.substr(g.size() + 1, n.size() - g.size() - 1 - suffix.size());
    return std::all_of(index.begin(), index.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// The loops directly inside a statement (not nested in another loop) that
// access g, each with the if/else branches it lies in, and whether anything
// accesses g outside every loop or uses its storage's fields (g.min.d,
// g.extent.d, g.stride.d, the buffer g), whose meaning the fold changes.
class TopLoops : public IRVisitor {
public:
    explicit TopLoops(const std::string &g) : g_(g) {}
    struct Found {
        const For *loop;
        std::vector<std::pair<const IfThenElse *, bool>> branches;
    };
    std::vector<Found> loops;
    bool outside = false, other_use = false;
    // g's storage given to an extern stage (a region of it, cropped where
    // the fold keeps it: folded only as fold_storage() asks).
    bool extern_use = false;

    // Whether no two of the loops can run in one execution (each pair lies
    // in the two branches of one if).
    bool exclusive() const {
        for (size_t i = 0; i < loops.size(); i++) {
            for (size_t j = i + 1; j < loops.size(); j++) {
                bool apart = false;
                for (const auto &a : loops[i].branches) {
                    for (const auto &b : loops[j].branches) {
                        apart = apart || (a.first == b.first && a.second != b.second);
                    }
                }
                if (!apart) {
                    return false;
                }
            }
        }
        return true;
    }

    using IRVisitor::visit;
    void visit(const For *op) override {
        if (depth_ == 0) {
            bool before = accessed_;
            accessed_ = false;
            depth_++;
            IRVisitor::visit(op);
            depth_--;
            if (accessed_) {
                loops.push_back({op, branches_});
            }
            accessed_ = before || accessed_;
            return;
        }
        IRVisitor::visit(op);
    }
    void visit(const IfThenElse *op) override {
        if (depth_ > 0) {
            IRVisitor::visit(op);
            return;
        }
        op->condition.accept(this);
        branches_.push_back({op, true});
        op->then_case.accept(this);
        branches_.back().second = false;
        if (op->else_case.defined()) {
            op->else_case.accept(this);
        }
        branches_.pop_back();
    }
    void visit(const Provide *op) override {
        note(op->name);
        IRVisitor::visit(op);
    }
    void visit(const Call *op) override {
        if (op->call_type == Call::Halide) {
            note(op->name);
        }
        if (is_storage_buffer(op, g_)) {
            note(g_);
            extern_use = true;
            // The whole realization (a min of g.min.d) is not a region a fold keeps.
            for (size_t k = 6; k < op->args.size(); k += 3) {
                const Variable *min = op->args[k].as<Variable>();
                other_use = other_use || (min && min->name.compare(0, g_.size() + 5, g_ + ".min.") == 0);
            }
            in_storage_buffer_++;
            IRVisitor::visit(op);
            in_storage_buffer_--;
            return;
        }
        IRVisitor::visit(op);
    }
    void visit(const Variable *op) override {
        if (in_storage_buffer_ > 0) {
            return; // its fields give the region's place in the storage (rewritten by a fold)
        }
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
    int depth_ = 0, in_storage_buffer_ = 0;
    bool accessed_ = false;
    std::vector<std::pair<const IfThenElse *, bool>> branches_;
};

// Whether coordinate d of an access of g uses the variable of a vectorized
// loop (folding it would turn a dense vector access into a gather).
class VectorizedCoordinate : public IRVisitor {
public:
    VectorizedCoordinate(const std::string &g, int dim) : g_(g), dim_(dim) {}
    bool found = false;

    using IRVisitor::visit;
    void visit(const For *op) override {
        if (op->for_type == ForType::Vectorized) {
            vector_names_.insert(op->name);
        }
        IRVisitor::visit(op);
    }
    void visit(const LetStmt *op) override {
        if (uses_vector(op->value)) {
            vector_names_.insert(op->name);
        }
        IRVisitor::visit(op);
    }
    void visit(const Let *op) override {
        if (uses_vector(op->value)) {
            vector_names_.insert(op->name);
        }
        IRVisitor::visit(op);
    }
    void visit(const Provide *op) override {
        found = found || (op->name == g_ && uses_vector(op->args[dim_]));
        IRVisitor::visit(op);
    }
    void visit(const Call *op) override {
        found = found || (op->call_type == Call::Halide && op->name == g_ && uses_vector(op->args[dim_]));
        IRVisitor::visit(op);
    }

private:
    bool uses_vector(const Expr &e) const {
        class Uses : public IRVisitor {
        public:
            explicit Uses(const std::set<std::string> &names) : names_(names) {}
            bool result = false;
            using IRVisitor::visit;
            void visit(const Variable *op) override { result = result || names_.count(op->name) > 0; }

        private:
            const std::set<std::string> &names_;
        } uses(vector_names_);
        e.accept(&uses);
        return uses.result;
    }
    std::string g_;
    int dim_;
    std::set<std::string> vector_names_;
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
        if (const Call *c = e.as<Call>(); c && is_storage_buffer(c, g_)) {
            return fold_buffer(e);
        }
        if (op->call_type != Call::Halide || op->name != g_) {
            return e;
        }
        const Call *c = e.as<Call>();
        std::vector<Expr> args = c->args;
        args[dim_] = fold(args[dim_]);
        return Call::make(c->type, c->name, args, c->call_type, c->value_index, c->callee);
    }
    // A LetStmt whose value gives an extern stage a region of g: the region
    // must not cross a fold boundary (checked first, as upstream).
    Stmt visit(const LetStmt *op) override {
        size_t before = checks_.size();
        Expr value = mutate(op->value);
        std::vector<Stmt> mine(checks_.begin() + (std::ptrdiff_t)before, checks_.end());
        checks_.resize(before);
        Stmt body = mutate(op->body);
        Stmt s =
            value.same_as(op->value) && body.same_as(op->body) ? self_stmt(op) : LetStmt::make(op->name, value, body);
        return mine.empty() ? s : Block::make(Block::make(mine), s);
    }

private:
    // buffer_make(host, offset, type..., (min, extent, stride) per dim) of
    // g's storage: its offset moved to where min lives in the folded
    // storage (g.min.d is 0 there), keeping min as its coordinate.
    Expr fold_buffer(const Expr &e) {
        const Call *op = e.as<Call>();
        const size_t at = 6 + 3 * (size_t)dim_;
        if (at + 2 >= op->args.size()) {
            return e;
        }
        std::vector<Expr> args = op->args;
        Expr min = args[at], extent = args[at + 1], stride = args[at + 2];
        Expr unfolded = Sub::make(min, Variable::make(Int(32), g_ + ".min." + std::to_string(dim_)));
        args[1] = Add::make(args[1], Mul::make(Sub::make(fold(min), unfolded), stride));
        Expr f = IntImm::make(Int(32), factor_);
        checks_.push_back(AssertStmt::make(LE::make(Add::make(fold(min), extent), f),
                                           Call::make(Int(32), "halide_error_bad_extern_fold",
                                                      {Variable::make(Handle(), "__user_context"), StringImm::make(g_),
                                                       IntImm::make(Int(32), dim_), min, extent, min, f},
                                                      Call::Extern)));
        return Call::make(op->type, op->name, args, op->call_type);
    }
    std::vector<Stmt> checks_;

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

// The smallest power of two provably at least `span` (at most 1024), or 0.
int64_t power_of_two_bound(const Expr &span) {
    if (const IntImm *c = span.as<IntImm>()) {
        return c->value > 0 && c->value <= 1024 ? next_power_of_two(c->value) : 0;
    }
    for (int64_t p = 1; p <= 1024; p *= 2) {
        if (can_prove(LE::make(span, IntImm::make(Int(32), p)))) {
            return p;
        }
    }
    return 0;
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
        Stmt s = try_fold(*f->second, op, body);
        return s.defined() ? s : unchanged;
    }

private:
    struct Planned {
        int dim;
        int64_t factor;
        std::vector<std::pair<std::string, Stmt>> checks; // run-time checks opening loops, by loop name
        // Checks inside a loop's opening lets (which they name), by loop name.
        std::vector<std::pair<std::string, Stmt>> checks_after_lets;
    };

    // A loop's body without the lets that open it, and their names.
    static Stmt without_opening_lets(const Stmt &body) {
        Stmt s = body;
        while (const LetStmt *l = s.as<LetStmt>()) {
            s = l->body;
        }
        return s;
    }

    // An explicit fold of dimension d of g, an extern stage's input or
    // output, whose region each iteration of `loop` is only known at run
    // time (an extern stage's query answers it): then nothing slid (the
    // region's lets are not monotonic), so each iteration computes all it
    // reads and the fold need only hold one iteration's region. Checked
    // there, after the lets that give it (upstream tracks the region at run
    // time instead).
    bool fold_at_run_time(const FunctionContents &g, const For *loop, int d, int64_t factor, Planned &p) {
        auto inner = boxes_touched(without_opening_lets(loop->body));
        auto it = inner.find(g.name);
        if (it == inner.end() || d >= (int)it->second.size() || !it->second[(size_t)d].is_bounded()) {
            return false;
        }
        const Interval &i = it->second[(size_t)d];
        Expr span = simplify(Add::make(Sub::make(i.max, i.min), IntImm::make(Int(32), 1)));
        Expr fits = LE::make(span, IntImm::make(Int(32), factor));
        p.checks_after_lets.push_back(
            {loop->name,
             AssertStmt::make(fits, Call::make(Int(32), "halide_error_fold_factor_too_small",
                                               {Variable::make(Handle(), "__user_context"), StringImm::make(g.name),
                                                StringImm::make(g.args[(size_t)d]), IntImm::make(Int(32), factor),
                                                StringImm::make(loop->name), span},
                                               Call::Extern))});
        return true;
    }

    // What a dimension's coordinates do over one level of loops.
    struct Motion {
        bool moves = false;  // they depend on some loop's variable
        bool bounded = true; // in every loop
        bool forward = true, backward = true;
        bool disjoint = true;    // consecutive iterations of every loop touch disjoint coordinates
        int64_t bound = 1;       // a power of two at least every loop's span (0: none <= 1024)
        int64_t span2_bound = 1; // the same over two consecutive iterations (async run-ahead)
        std::vector<std::pair<std::string, Expr>> spans; // each loop's span
    };

    static Motion motion(const std::vector<const For *> &loops, const std::vector<Box> &boxes, int d) {
        Motion m;
        for (size_t k = 0; k < loops.size(); k++) {
            if (!boxes[k][d].is_bounded()) {
                m.bounded = false;
                return m;
            }
            // Simplified first: a vectorized access's region, widened to
            // whole vectors, differences its own ends (max - min), which
            // is_monotonic cannot judge until they cancel.
            const Interval i{simplify(boxes[k][d].min), simplify(boxes[k][d].max)};
            const std::string &v = loops[k]->name;
            Monotonic lo = is_monotonic(i.min, v), hi = is_monotonic(i.max, v);
            auto up = [](Monotonic x) { return x == Monotonic::Increasing || x == Monotonic::Constant; };
            auto down = [](Monotonic x) { return x == Monotonic::Decreasing || x == Monotonic::Constant; };
            bool fixed = lo == Monotonic::Constant && hi == Monotonic::Constant;
            m.moves = m.moves || !fixed;
            bool fw = up(lo) && up(hi), bw = down(lo) && down(hi);
            m.forward = m.forward && fw;
            m.backward = m.backward && bw;
            Expr span = simplify(Add::make(Sub::make(i.max, i.min), IntImm::make(Int(32), 1)));
            m.spans.push_back({v, span});
            int64_t b = power_of_two_bound(span);
            m.bound = (m.bound == 0 || b == 0) ? 0 : std::max(m.bound, b);
            Expr next = Add::make(Variable::make(Int(32), v), IntImm::make(Int(32), 1));
            auto at_next = [&](const Expr &e) { return substitute({{v, next}}, e); };
            // Forward, the coordinates of the next iteration start past
            // this one's; backward, they end before.
            m.disjoint = m.disjoint && !fixed &&
                         ((fw && can_prove(LT::make(i.max, at_next(i.min)))) ||
                          (bw && can_prove(LT::make(at_next(i.max), i.min))));
            Expr span2 = simplify(fw ? Add::make(Sub::make(at_next(i.max), i.min), IntImm::make(Int(32), 1))
                                     : Add::make(Sub::make(i.max, at_next(i.min)), IntImm::make(Int(32), 1)));
            const IntImm *c2 = span2.as<IntImm>();
            int64_t b2 = c2 && c2->value > 0 ? next_power_of_two(c2->value) : 0;
            m.span2_bound = (m.span2_bound == 0 || b2 == 0) ? 0 : std::max(m.span2_bound, b2);
        }
        return m;
    }

    // g's realization folded where the loops inside it allow (or fold_storage
    // asks), or undefined. The loops are walked from the realization in: at
    // each level (the loops holding every access of g, in exclusive if/else
    // branches if several), each dimension whose coordinates move with the
    // loops is folded; the walk goes on into the loops' bodies while
    // consecutive iterations touch disjoint coordinates of some dimension
    // (then nothing lives from one iteration to the next, and an inner fold
    // only needs to hold within one iteration).
    Stmt try_fold(const FunctionContents &g, const Realize *op, const Stmt &body) {
        TopLoops top(g.name);
        body.accept(&top);
        // Upstream folds automatically only a Func produced in one place:
        // loops in if/else branches (a specialized consumer duplicates
        // them) are folded only as fold_storage() asks.
        bool automatic = true;
        std::string why;
        std::vector<Planned> plan;
        std::set<int> folded;
        TopLoops level = top;
        bool first = true;
        while (true) {
            if (level.other_use || level.outside || level.loops.empty() || !level.exclusive()) {
                if (first) {
                    why = "it is not accessed within a single loop inside its storage (store it further out than "
                          "where it is computed, and use it in one loop only)";
                }
                break;
            }
            automatic = automatic && level.loops.size() == 1 && !level.extern_use;
            std::vector<const For *> loops;
            std::vector<Box> boxes;
            bool usable = true;
            for (const auto &found : level.loops) {
                const For *loop = found.loop;
                if (loop->for_type != ForType::Serial && loop->for_type != ForType::Unrolled) {
                    if (first) {
                        why = "the loop over " + loop->name + " that accesses it is not serial";
                    }
                    usable = false;
                    break;
                }
                auto all = boxes_touched(loop->body);
                auto it = all.find(g.name);
                if (it == all.end()) {
                    usable = false;
                    break;
                }
                loops.push_back(loop);
                boxes.push_back(it->second);
            }
            if (!usable) {
                break;
            }
            bool stop = false, disjoint = false;
            // Outermost storage dimension first: folding it saves the most.
            for (int d = (int)g.args.size(); d-- > 0 && !stop;) {
                if (folded.count(d)) {
                    continue;
                }
                Motion m = motion(loops, boxes, d);
                auto spec = g.storage_folds.find(g.args[d]);
                if (!m.bounded) {
                    Planned p{d, 0, {}, {}};
                    if (spec != g.storage_folds.end() && level.extern_use && loops.size() == 1 &&
                        fold_at_run_time(g, loops[0], d, spec->second.first.as<IntImm>()->value, p)) {
                        p.factor = spec->second.first.as<IntImm>()->value;
                        plan.push_back(p);
                        folded.insert(d);
                        stop = true; // what lives from one iteration to the next is unknown
                        continue;
                    }
                    if (spec != g.storage_folds.end()) {
                        why = "the coordinates of dimension '" + g.args[d] + "' accessed by the loop over " +
                              loops[0]->name + " are unbounded";
                    }
                    continue;
                }
                if (!m.moves) {
                    continue; // the same coordinates every iteration: nothing to fold away at this level
                }
                disjoint = disjoint || m.disjoint;
                Planned p{d, 0, {}, {}};
                if (spec == g.storage_folds.end()) {
                    if (!automatic || !(m.forward || m.backward) || m.bound == 0) {
                        continue;
                    }
                    VectorizedCoordinate vec(g.name, d);
                    for (const For *loop : loops) {
                        loop->body.accept(&vec);
                    }
                    if (vec.found) {
                        continue; // as upstream: vector accesses stay dense unless fold_storage() asks
                    }
                    p.factor = m.bound;
                    if (g.async && first && run_ahead_ && m.span2_bound > 0) {
                        p.factor = m.span2_bound;
                        run_ahead_->insert(g.name);
                    }
                } else {
                    p.factor = spec->second.first.as<IntImm>()->value;
                    bool want_forward = spec->second.second;
                    user_assert(want_forward ? m.forward : m.backward)
                        << "Can't fold the storage of Func '" << g.name << "' along dimension '" << g.args[d]
                        << "' as fold_storage() asks: the coordinates the loop over " << loops[0]->name << " accesses ("
                        << brief(boxes[0][d].min) << " to " << brief(boxes[0][d].max) << ") do not move towards "
                        << (want_forward ? "larger" : "smaller") << " values as it runs"
                        << (want_forward && m.backward ? " (they move backwards: pass fold_forward=false)" : "")
                        << (!want_forward && m.forward ? " (they move forwards: pass fold_forward=true)" : "");
                    // A span that may exceed the factor is checked in each
                    // iteration (a span always too large fails at run time, as upstream's).
                    for (const auto &[loop_name, span] : m.spans) {
                        Expr fits = LE::make(span, IntImm::make(Int(32), p.factor));
                        if (can_prove(fits)) {
                            continue;
                        }
                        p.checks.push_back(
                            {loop_name,
                             AssertStmt::make(
                                 fits, Call::make(Int(32), "halide_error_fold_factor_too_small",
                                                  {Variable::make(Handle(), "__user_context"), StringImm::make(g.name),
                                                   StringImm::make(g.args[d]), IntImm::make(Int(32), p.factor),
                                                   StringImm::make(loop_name), span},
                                                  Call::Extern))});
                    }
                    if (g.async && first && run_ahead_ && m.span2_bound > 0 && m.span2_bound <= p.factor) {
                        run_ahead_->insert(g.name);
                    }
                }
                plan.push_back(p);
                folded.insert(d);
                // Values live from one iteration to the next: the inner
                // loops' footprints say nothing about how long they live.
                stop = !m.disjoint;
            }
            if (stop || !disjoint || g.async) {
                break;
            }
            TopLoops inner(g.name);
            bool outside = false;
            for (const For *loop : loops) {
                TopLoops in(g.name);
                loop->body.accept(&in);
                outside = outside || in.outside || !in.exclusive();
                inner.loops.insert(inner.loops.end(), in.loops.begin(), in.loops.end());
            }
            inner.outside = outside;
            level = inner;
            first = false;
        }
        for (const auto &[dim, fold] : g.storage_folds) {
            auto d = std::find(g.args.begin(), g.args.end(), dim) - g.args.begin();
            user_assert(folded.count((int)d))
                << "Can't fold the storage of Func '" << g.name << "' as fold_storage() asks: "
                << (why.empty() ? "the coordinates of dimension '" + dim +
                                      "' it is accessed at do not move with any loop inside its storage"
                                : why);
        }
        if (plan.empty()) {
            return Stmt();
        }
        return apply(g, op, body, plan);
    }

    // g's realization stored in `factor` coordinates along each planned
    // dimension, with the checks opening their loops.
    Stmt apply(const FunctionContents &g, const Realize *op, const Stmt &body, const std::vector<Planned> &plan) {
        Stmt folded = body;
        std::vector<Range> bounds = op->bounds;
        for (const Planned &p : plan) {
            folded = FoldAccesses(g.name, p.dim, p.factor).mutate(folded);
            bounds[p.dim] = {IntImm::make(Int(32), 0), IntImm::make(Int(32), p.factor)};
            for (const auto &[loop_name, check] : p.checks) {
                class AddCheck : public IRMutator {
                public:
                    AddCheck(const std::string &loop, Stmt check) : loop_(loop), check_(std::move(check)) {}
                    using IRMutator::visit;
                    Stmt visit(const For *op) override {
                        if (op->name != loop_) {
                            return IRMutator::visit(op);
                        }
                        return For::make(op->name, op->min, op->extent, op->for_type, Block::make(check_, op->body));
                    }

                private:
                    std::string loop_;
                    Stmt check_;
                };
                // The check uses the loop's variable and names from outside it.
                folded = AddCheck(loop_name, check).mutate(folded);
            }
            for (const auto &[loop_name, check] : p.checks_after_lets) {
                class AddCheckAfterLets : public IRMutator {
                public:
                    AddCheckAfterLets(const std::string &loop, Stmt check) : loop_(loop), check_(std::move(check)) {}
                    using IRMutator::visit;
                    Stmt visit(const For *op) override {
                        if (op->name != loop_) {
                            return IRMutator::visit(op);
                        }
                        return For::make(op->name, op->min, op->extent, op->for_type, after_lets(op->body));
                    }

                private:
                    Stmt after_lets(const Stmt &s) const {
                        if (const LetStmt *l = s.as<LetStmt>()) {
                            return LetStmt::make(l->name, l->value, after_lets(l->body));
                        }
                        return Block::make(check_, s);
                    }
                    std::string loop_;
                    Stmt check_;
                };
                folded = AddCheckAfterLets(loop_name, check).mutate(folded);
            }
        }
        Stmt s = Realize::make(op->name, op->types, bounds, folded);
        // StorageFlattening indexes with g.min.d and strides from g.extent.d.
        for (const Planned &p : plan) {
            s = LetStmt::make(g.name + ".extent." + std::to_string(p.dim), IntImm::make(Int(32), p.factor), s);
            s = LetStmt::make(g.name + ".min." + std::to_string(p.dim), IntImm::make(Int(32), 0), s);
        }
        return s;
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
