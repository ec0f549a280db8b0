#include "frontend/DerivativeRules.h"

#include "Halide/Error.h"
#include "Halide/IR.h"
#include "Halide/IROperator.h"
#include "ir/Substitute.h"
#include "lower/Function.h"

namespace Halide {
namespace Internal {

namespace {

class AdjointWalker {
public:
    explicit AdjointWalker(std::string func) : func_(std::move(func)) {}

    ExprAdjoints result;

    // Adds `adj` as (part of) the adjoint of `e` and passes it down.
    void walk(const Expr &e, Expr adj) {
        if (!e.defined() || !e.type().is_float()) {
            return; // integers and booleans carry no derivative
        }
        if (adj.type() != e.type()) {
            adj = cast(e.type(), adj);
        }
        switch (e->node_type) {
        case IRNodeType::Variable:
            if (find_param(e.as<Variable>()->name)) {
                result.params.emplace_back(e.as<Variable>()->name, adj);
            }
            return;
        case IRNodeType::Cast: {
            const Expr &v = e.as<Cast>()->value;
            walk(v, adj);
            return;
        }
        case IRNodeType::Add:
            walk(e.as<Add>()->a, adj);
            walk(e.as<Add>()->b, adj);
            return;
        case IRNodeType::Sub:
            walk(e.as<Sub>()->a, adj);
            walk(e.as<Sub>()->b, -adj);
            return;
        case IRNodeType::Mul: {
            const Mul *op = e.as<Mul>();
            walk(op->a, adj * op->b);
            walk(op->b, adj * op->a);
            return;
        }
        case IRNodeType::Div: {
            const Div *op = e.as<Div>();
            walk(op->a, adj / op->b);
            walk(op->b, -adj * op->a / (op->b * op->b));
            return;
        }
        case IRNodeType::Mod: {
            // a - b * floor(a / b)
            const Mod *op = e.as<Mod>();
            walk(op->a, adj);
            walk(op->b, -adj * floor(op->a / op->b));
            return;
        }
        case IRNodeType::Min:
        case IRNodeType::Max: {
            // The derivative of the operand chosen (the first one on ties).
            Expr a = e->node_type == IRNodeType::Min ? e.as<Min>()->a : e.as<Max>()->a;
            Expr b = e->node_type == IRNodeType::Min ? e.as<Min>()->b : e.as<Max>()->b;
            Expr a_chosen = e->node_type == IRNodeType::Min ? a <= b : a >= b;
            walk_where(a, adj, a_chosen, true);
            walk_where(b, adj, a_chosen, false);
            return;
        }
        case IRNodeType::Select: {
            const Select *op = e.as<Select>();
            walk_where(op->true_value, adj, op->condition, true);
            walk_where(op->false_value, adj, op->condition, false);
            return;
        }
        case IRNodeType::Let: {
            const Let *op = e.as<Let>();
            walk(substitute({{op->name, op->value}}, op->body), adj);
            return;
        }
        case IRNodeType::Call: walk_call(e, adj); return;
        default: return; // constants
        }
    }

private:
    std::string func_;

    // The adjoints of `e`'s leaves where `condition` is `when`, zero
    // elsewhere: the select goes around each whole derivative, so a branch
    // not taken contributes 0 even where its derivative is infinite or NaN
    // (select(x > 0, log(x), 0) at x = 0).
    void walk_where(const Expr &e, const Expr &adj, const Expr &condition, bool when) {
        AdjointWalker branch(func_);
        branch.walk(e, adj);
        auto masked = [&](const Expr &d) {
            Expr zero = make_zero(d.type());
            return when ? select(condition, d, zero) : select(condition, zero, d);
        };
        for (auto &[call, d] : branch.result.calls) {
            result.calls.emplace_back(call, masked(d));
        }
        for (auto &[name, d] : branch.result.params) {
            result.params.emplace_back(name, masked(d));
        }
    }

    void walk_call(const Expr &e, const Expr &adj) {
        const Call *op = e.as<Call>();
        if (op->call_type == Call::Halide || op->call_type == Call::Image) {
            result.calls.emplace_back(e, adj);
            return;
        }
        if (op->call_type == Call::Intrinsic) {
            if (op->name == Intrinsics::abs) {
                const Expr &x = op->args[0];
                walk(x, select(x >= make_zero(x.type()), adj, -adj));
                return;
            }
            if (op->name == Intrinsics::likely || op->name == Intrinsics::likely_if_innermost ||
                op->name == Intrinsics::strict_float || op->name == Intrinsics::unsafe_promise_clamped) {
                walk(op->args[0], adj);
                return;
            }
            user_error << "propagate_adjoints: cannot differentiate the intrinsic " << op->name
                       << " in the definition of " << func_;
        }
        // A C math function: sinf (Float(32)) or sin.
        std::string name = op->name;
        if (e.type().bits() == 32 && !name.empty() && name.back() == 'f') {
            name.pop_back();
        }
        Type t = e.type();
        auto c = [&](double v) { return make_const(t, v); };
        const Expr &x = op->args[0];
        if (op->args.size() == 1) {
            Expr d;
            if (name == "sin") {
                d = cos(x);
            } else if (name == "cos") {
                d = -sin(x);
            } else if (name == "tan") {
                d = c(1) / (cos(x) * cos(x));
            } else if (name == "asin") {
                d = c(1) / sqrt(c(1) - x * x);
            } else if (name == "acos") {
                d = c(-1) / sqrt(c(1) - x * x);
            } else if (name == "atan") {
                d = c(1) / (c(1) + x * x);
            } else if (name == "sinh") {
                d = cosh(x);
            } else if (name == "cosh") {
                d = sinh(x);
            } else if (name == "tanh") {
                d = c(1) - e * e;
            } else if (name == "asinh") {
                d = c(1) / sqrt(x * x + c(1));
            } else if (name == "acosh") {
                d = c(1) / sqrt(x * x - c(1));
            } else if (name == "atanh") {
                d = c(1) / (c(1) - x * x);
            } else if (name == "sqrt") {
                d = c(0.5) / e;
            } else if (name == "exp") {
                d = e;
            } else if (name == "log") {
                d = c(1) / x;
            } else if (name == "fabs") {
                d = select(x >= c(0), c(1), c(-1));
            } else if (name == "floor" || name == "ceil" || name == "nearbyint" || name == "trunc") {
                return; // piecewise constant
            }
            if (d.defined()) {
                walk(x, adj * d);
                return;
            }
        } else if (op->args.size() == 2) {
            const Expr &y = op->args[1];
            if (name == "pow") {
                walk(x, adj * y * pow(x, y - c(1)));
                walk(y, adj * e * log(x));
                return;
            }
            if (name == "atan2") { // atan2(x, y) = atan(x / y) on the right half plane
                Expr r2 = x * x + y * y;
                walk(x, adj * y / r2);
                walk(y, -adj * x / r2);
                return;
            }
            if (name == "hypot") {
                walk(x, adj * x / e);
                walk(y, adj * y / e);
                return;
            }
        }
        user_error << "propagate_adjoints: cannot differentiate the function " << op->name << " in the definition of "
                   << func_;
    }
};

} // namespace

ExprAdjoints differentiate_expr(const Expr &e, const Expr &seed, const std::string &func) {
    AdjointWalker w(func);
    w.walk(e, seed);
    return w.result;
}

} // namespace Internal
} // namespace Halide
