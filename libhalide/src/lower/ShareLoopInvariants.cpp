// See Passes.h: a scalar value that two or more sibling loops compute the
// same way, and that does not change inside them, is computed once before
// them, in a LetStmt at the top of the loop body they are in.
//
// Loop partitioning copies a loop's body into its prologue, steady state
// and epilogue: a stencil's row becomes three x loops, each computing the
// same row offsets (`(y - input.min.1) * input.stride.1 - input.min.0`
// for each row it reads). LLVM hoists each loop's invariants into that
// loop's preheader, but the three preheaders sit behind the loops' own
// zero-trip checks, none dominating the others, so every row computes them
// three times (Sobel with clamp(likely()): two one-vector edge loops, each
// recomputing the three row pointers it shares with the steady loop).
//
// What is lifted: the largest subexpressions of the child loops' bodies
// (the loops directly inside the body, not nested in another loop of it)
// that
// - are scalar and pure arithmetic (no loads, no calls but likely() and
//   likely_if_innermost(), which only mark branches for partitioning,
//   done by now); division never traps, so computing a value where the
//   loop would not have run changes nothing;
// - use no name bound inside the enclosing body (its lets and loops), but
//   lets of constants (a vectorized loop's `let x_vec = 0`), which are
//   substituted;
// - do at least two operations (an offset like `a + -1` is folded into the
//   addressing where it is used);
// - appear in at least two of the child loops (one loop's invariants are
//   LLVM's to hoist: lifting them here would only compute them before a
//   loop that may not run).
// - are not in a branch of an if the other loops are outside of: each
//   branch is a body of its own (a tile's row is either its fast path or
//   its three partitioned loops; lifted above the if, the edge loops'
//   values were computed on the fast path too: box blur +8% instructions).
// Loops are visited innermost first, so a value lifted to the top of a row
// loop's body can be lifted again out of that row loop, where it does not
// depend on the row and the row loop has siblings computing it too.
//
// The lets are named `<loop>.shared$<n>`; codegen (CodeGen_LLVM_Vectors.cpp,
// push_row_pointers) computes from each that two or more loops add to
// their indices a row pointer where it is bound, and otherwise writes its
// value back into the indices, so that LLVM sees them as before.
#include <map>
#include <set>
#include <string>
#include <vector>

#include "Halide/Error.h"
#include "Halide/IREquality.h"
#include "Halide/IRMutator.h"
#include "Halide/IRVisitor.h"
#include "Halide/Simplify.h"
#include "ir/Substitute.h"
#include "lower/Passes.h"

namespace Halide {
namespace Internal {

// The binary nodes the pass looks through, for walk() and rebuild().
#define HALIDE_SHARE_BINARY_OPS(X)                                                                                     \
    X(Add) X(Sub) X(Mul) X(Div) X(Mod) X(Min) X(Max) X(EQ) X(NE) X(LT) X(LE) X(GT) X(GE) X(And) X(Or)
namespace {

// The fewest operations a lifted value does.
constexpr int kMinOps = 2;

// Counts the operations of an expression (the nodes that are not leaves).
class OpCount : public IRVisitor {
public:
    int n = 0;
    using IRVisitor::visit;
#define HALIDE_IR_NODE(N)                                                                                              \
    void visit(const N *op) override {                                                                                 \
        n += is_leaf(op) ? 0 : 1;                                                                                      \
        IRVisitor::visit(op);                                                                                          \
    }
#include "Halide/IRNodes.def"
#undef HALIDE_IR_NODE

private:
    template <typename Node> static bool is_leaf(const Node *) {
        return false;
    }
    static bool is_leaf(const Variable *) {
        return true;
    }
    static bool is_leaf(const IntImm *) {
        return true;
    }
    static bool is_leaf(const UIntImm *) {
        return true;
    }
    static bool is_leaf(const FloatImm *) {
        return true;
    }
    static bool is_leaf(const StringImm *) {
        return true;
    }
};

int op_count(const Expr &e) {
    OpCount ops;
    ops.include(e);
    return ops.n;
}

bool is_marker(const Call *op) {
    return op->call_type == Call::Intrinsic && (op->name == "likely" || op->name == "likely_if_innermost") &&
           op->args.size() == 1;
}

// Walks the body of one loop (the enclosing one): in Count mode it counts,
// for each largest liftable value, the child loops it appears in; in
// Replace mode it replaces each value named in `names` by its variable,
// inside the child loops.
class Candidates : public IRMutator {
public:
    enum class Mode { Count, Replace };
    Candidates(Mode mode, const std::map<Expr, std::string, ExprCompare> &names) : mode_(mode), names_(names) {}

    // The child loops each value appears in, and the values in order of
    // first appearance.
    std::map<Expr, std::set<int>, ExprCompare> loops_of;
    std::vector<Expr> order;

    using IRMutator::mutate;
    Expr mutate(const Expr &e) override {
        if (child_ < 0) {
            return e; // outside the child loops: not looked at
        }
        bool ok = false;
        Expr r = walk(e, ok);
        if (ok) {
            record(e);
        }
        return r;
    }

private:
    Mode mode_;
    const std::map<Expr, std::string, ExprCompare> &names_;
    int child_ = -1;                            // the child loop being walked (-1: none)
    int next_child_ = 0;                        // the next child loop's number
    int depth_ = 0;                             // loops entered inside the enclosing body
    std::set<std::string> bound_;               // names bound inside the enclosing body
    std::map<std::string, Expr> constant_lets_; // lets of constants among them

    Expr key(const Expr &e) const { return constant_lets_.empty() ? e : substitute(constant_lets_, e); }

    // A largest liftable value, in the child loop being walked.
    void record(const Expr &e) {
        if (mode_ == Mode::Count && op_count(e) >= kMinOps) {
            Expr k = key(e);
            std::set<int> &loops = loops_of[k];
            if (loops.empty()) {
                order.push_back(k);
            }
            loops.insert(child_);
        }
    }

    // e with its shared values replaced (Replace mode); `ok` says whether
    // e itself may be lifted. The operands that may be of a node that may
    // not are recorded (Count mode).
    Expr walk(const Expr &e, bool &ok) {
        if (e.as<IntImm>() || e.as<UIntImm>() || e.as<FloatImm>()) {
            ok = true;
            return e;
        }
        if (const Variable *v = e.as<Variable>()) {
            ok = v->type.is_scalar() && !v->type.is_handle() &&
                 (!bound_.count(v->name) || constant_lets_.count(v->name));
            return e;
        }
        if (const Let *op = e.as<Let>()) {
            bool value_ok = false, body_ok = false;
            Expr value = walk(op->value, value_ok);
            if (value_ok) {
                record(op->value);
            }
            bind(op->name, op->value);
            Expr body = walk(op->body, body_ok);
            if (body_ok) {
                record(op->body);
            }
            unbind(op->name);
            ok = false;
            return value.same_as(op->value) && body.same_as(op->body) ? e : Let::make(op->name, value, body);
        }
        // The operands, and whether this kind of node may be lifted.
        std::vector<Expr> in;
        bool kind_ok = e.type().is_scalar() && !e.type().is_handle();
        if (const Call *op = e.as<Call>()) {
            in = op->args;
            kind_ok = kind_ok && is_marker(op);
        } else if (const Load *op = e.as<Load>()) {
            in = {op->index};
            kind_ok = false;
        } else if (const Ramp *op = e.as<Ramp>()) {
            in = {op->base, op->stride};
            kind_ok = false;
        } else if (const Broadcast *op = e.as<Broadcast>()) {
            in = {op->value};
            kind_ok = false;
        } else if (const Cast *op = e.as<Cast>()) {
            in = {op->value};
        } else if (const Not *op = e.as<Not>()) {
            in = {op->a};
        } else if (const Select *op = e.as<Select>()) {
            in = {op->condition, op->true_value, op->false_value};
        } else if (!binary_operands(e, in)) {
            in = {}; // a StringImm, or a node this pass does not know
            kind_ok = false;
        }
        std::vector<Expr> out(in.size());
        std::vector<bool> oks(in.size(), false);
        bool all = kind_ok, changed = false;
        for (size_t i = 0; i < in.size(); i++) {
            bool o = false;
            out[i] = walk(in[i], o);
            oks[i] = o;
            all = all && o;
            changed = changed || !out[i].same_as(in[i]);
        }
        ok = all;
        if (!all) {
            for (size_t i = 0; i < in.size(); i++) {
                if (oks[i]) {
                    record(in[i]);
                }
            }
        } else if (mode_ == Mode::Replace) {
            auto it = names_.find(key(e));
            if (it != names_.end()) {
                return Variable::make(e.type(), it->second);
            }
        }
        return changed ? rebuild(e, out) : e;
    }

    static bool binary_operands(const Expr &e, std::vector<Expr> &in) {
#define HALIDE_SHARE_BINARY(N)                                                                                         \
    if (const N *op = e.as<N>()) {                                                                                     \
        in = {op->a, op->b};                                                                                           \
        return true;                                                                                                   \
    }
        HALIDE_SHARE_BINARY_OPS(HALIDE_SHARE_BINARY)
#undef HALIDE_SHARE_BINARY
        return false;
    }

    // e with new operands (in the order walk() listed them).
    static Expr rebuild(const Expr &e, const std::vector<Expr> &out) {
        if (const Call *op = e.as<Call>()) {
            return Call::make(op->type, op->name, out, op->call_type, op->value_index, op->callee);
        }
        if (const Load *op = e.as<Load>()) {
            return Load::make(op->type, op->name, out[0]);
        }
        if (const Ramp *op = e.as<Ramp>()) {
            return Ramp::make(out[0], out[1], op->lanes);
        }
        if (const Broadcast *op = e.as<Broadcast>()) {
            return Broadcast::make(out[0], op->lanes);
        }
        if (const Cast *op = e.as<Cast>()) {
            return Cast::make(op->type, out[0]);
        }
        if (e.as<Not>()) {
            return Not::make(out[0]);
        }
        if (e.as<Select>()) {
            return Select::make(out[0], out[1], out[2]);
        }
#define HALIDE_SHARE_BINARY(N)                                                                                         \
    if (e.as<N>()) {                                                                                                   \
        return N::make(out[0], out[1]);                                                                                \
    }
        HALIDE_SHARE_BINARY_OPS(HALIDE_SHARE_BINARY)
#undef HALIDE_SHARE_BINARY
        internal_error << "ShareLoopInvariants: rebuilding an unknown node";
        return e;
    }

    void bind(const std::string &name, const Expr &value) {
        bound_.insert(name);
        if (value.as<IntImm>() || value.as<UIntImm>() || value.as<FloatImm>()) {
            constant_lets_[name] = value;
        } else {
            constant_lets_.erase(name);
        }
    }
    void unbind(const std::string &name) {
        bound_.erase(name);
        constant_lets_.erase(name);
    }

    Stmt visit(const LetStmt *op) override {
        Expr value = mutate(op->value);
        bind(op->name, op->value);
        Stmt body = mutate(op->body);
        unbind(op->name);
        if (value.same_as(op->value) && body.same_as(op->body)) {
            return self_stmt(op);
        }
        return LetStmt::make(op->name, value, body);
    }

    // The loops of a branch are not counted with their siblings outside it
    // (the rows of box3's tiles: the fast path or the three partitioned
    // loops): values lifted above the if would be computed on the path that
    // does not use them. Each branch is a body of its own (ShareLoopInvariants).
    Stmt visit(const IfThenElse *op) override {
        if (depth_ == 0) {
            return self_stmt(op);
        }
        return IRMutator::visit(op);
    }

    Stmt visit(const For *op) override {
        bool child = depth_ == 0;
        if (child) {
            if (op->for_type != ForType::Serial && op->for_type != ForType::Parallel) {
                return self_stmt(op); // another kind of loop: left as it is
            }
            child_ = next_child_++;
        }
        depth_++;
        // A child's own bounds are evaluated once per entry, not per
        // iteration: not looked at (mutate() skips them outside a child).
        Expr min = child ? op->min : mutate(op->min), extent = child ? op->extent : mutate(op->extent);
        bound_.insert(op->name);
        Stmt body = mutate(op->body);
        bound_.erase(op->name);
        depth_--;
        if (child) {
            child_ = -1;
        }
        if (min.same_as(op->min) && extent.same_as(op->extent) && body.same_as(op->body)) {
            return self_stmt(op);
        }
        return For::make(op->name, min, extent, op->for_type, body);
    }
};

class ShareLoopInvariants : public IRMutator {
    using IRMutator::visit;
    int counter_ = 0;

    // `body` with the values its child loops share bound at its top.
    Stmt lift(const std::string &prefix, const Stmt &body) {
        const std::map<Expr, std::string, ExprCompare> none;
        Candidates count(Candidates::Mode::Count, none);
        count.mutate(body);
        std::map<Expr, std::string, ExprCompare> names;
        std::vector<std::pair<std::string, Expr>> lets;
        for (const Expr &e : count.order) {
            if (count.loops_of[e].size() >= 2) {
                std::string name = prefix + ".shared$" + std::to_string(counter_++);
                names[e] = name;
                lets.emplace_back(name, simplify(e)); // a substituted constant let may leave `a + 0`
            }
        }
        if (lets.empty()) {
            return body;
        }
        Candidates replace(Candidates::Mode::Replace, names);
        Stmt s = replace.mutate(body);
        for (size_t i = lets.size(); i-- > 0;) {
            s = LetStmt::make(lets[i].first, lets[i].second, s);
        }
        return s;
    }

    Stmt visit(const For *op) override {
        Stmt body = lift(op->name, mutate(op->body)); // inner loops first
        if (body.same_as(op->body)) {
            return self_stmt(op);
        }
        return For::make(op->name, op->min, op->extent, op->for_type, body);
    }

    Stmt visit(const IfThenElse *op) override {
        Stmt then_case = lift("then", mutate(op->then_case));
        Stmt else_case = op->else_case.defined() ? lift("else", mutate(op->else_case)) : op->else_case;
        if (then_case.same_as(op->then_case) && else_case.same_as(op->else_case)) {
            return self_stmt(op);
        }
        return IfThenElse::make(op->condition, then_case, else_case);
    }
};

} // namespace

Stmt share_loop_invariants(const Stmt &s) {
    return ShareLoopInvariants().mutate(s);
}

#undef HALIDE_SHARE_BINARY_OPS

} // namespace Internal
} // namespace Halide
