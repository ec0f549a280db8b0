// The values each Func can produce, as upstream's function value bounds: a
// Func with only a pure definition (no updates, specializations or extern
// stage) produces its values' intervals over all of its arguments. Bounds
// inference then bounds a read f(g(x)) by what g can give, not by g's type.
#include <algorithm>

#include "Halide/IRVisitor.h"
#include "ir/UsesVars.h"
#include "lower/Passes.h"

namespace Halide {
namespace Internal {
namespace {

// An end that bounds inference can compute before anything runs: no reads
// of Funcs or buffers, and none of the Func's own arguments.
Expr usable_end(const Expr &e, const std::vector<std::string> &args) {
    if (!e.defined()) {
        return e;
    }
    class Reads : public IRVisitor {
    public:
        using IRVisitor::visit;
        void visit(const Call *op) override {
            found = found || op->call_type == Call::Halide || op->call_type == Call::Image;
            IRVisitor::visit(op);
        }
        void visit(const Load *) override { found = true; }
        bool found = false;
    } reads;
    reads.include(e);
    bool uses_arg = expr_uses_var_if(
        e, [&](const std::string &name) { return std::find(args.begin(), args.end(), name) != args.end(); });
    return reads.found || uses_arg ? Expr() : e;
}

} // namespace

FuncValueBounds func_value_bounds(const Environment &env, const std::vector<std::string> &order) {
    FuncValueBounds bounds;
    for (const std::string &name : order) {
        auto it = env.find(name);
        if (it == env.end()) {
            continue;
        }
        const FunctionContents &f = *it->second;
        if (!f.updates.empty() || f.extern_def || !f.specializations.empty() || f.values.empty()) {
            continue;
        }
        Scope anything;
        for (const std::string &a : f.args) {
            anything[a] = Interval{};
        }
        FuncValueBoundsScope producers(bounds); // producers come first: theirs are known

        for (size_t j = 0; j < f.values.size(); j++) {
            if (!f.values[j].type().is_int() && !f.values[j].type().is_uint()) {
                // Only integer values bound a read's coordinates; float bounds
                // reached Interval's float `%`, which mixes int and float terms.
                continue;
            }
            Interval v = bounds_of_expr(f.values[j], anything);
            v = {usable_end(v.min, f.args), usable_end(v.max, f.args)};
            if (v.min.defined() || v.max.defined()) {
                bounds[{name, (int)j}] = v;
            }
        }
    }
    return bounds;
}

} // namespace Internal
} // namespace Halide
