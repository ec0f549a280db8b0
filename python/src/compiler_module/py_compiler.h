// halide._compiler: the Python bindings of the compiler (libhalide).
//
// One file per concept; each defines its classes and functions on the module
// in a define_* function, called in order from module.cpp.
#ifndef HALIDE_PY_COMPILER_H
#define HALIDE_PY_COMPILER_H

#include <pybind11/operators.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <utility>
#include <vector>

#include "Halide.h"

namespace halide_py {

namespace py = pybind11;

void declare_classes(py::module_ &m);
void define_error(py::module_ &m);
void define_type(py::module_ &m);
void define_expr(py::module_ &m);
void define_var(py::module_ &m);
void define_rdom(py::module_ &m);
void define_operators(py::module_ &m);
void define_integer_ops(py::module_ &m);
void define_target(py::module_ &m);
void define_target_queries(py::module_ &m);
void define_random(py::module_ &m);
void define_derivative(py::module_ &m);
void define_scatter_gather(py::module_ &m);
void define_lambda(py::module_ &m);
void define_require(py::module_ &m);
void define_buffer(py::module_ &m);
void define_tuple(py::module_ &m);
void define_func(py::module_ &m);
void define_func_requirements(py::module_ &m);
void define_output(py::module_ &m);
void define_stage(py::module_ &m);
void define_param(py::module_ &m);
void define_pipeline(py::module_ &m);
void define_callable(py::module_ &m);
void define_generator(py::module_ &m);
void define_boundary_conditions(py::module_ &m);
void define_specialize(py::module_ &m);
void define_device(py::module_ &m);
void define_evaluate(py::module_ &m);
void define_extern(py::module_ &m);
void define_user_context(py::module_ &m);
void define_storage(py::module_ &m);
void define_memoize(py::module_ &m);
void define_estimates(py::module_ &m);
void define_loop_level(py::module_ &m);
void define_prefetch(py::module_ &m);
void define_parameter(py::module_ &m);
void define_module(py::module_ &m);
void define_autoscheduler(py::module_ &m);
void define_arginfo(py::module_ &m);
void define_serialize(py::module_ &m);

// The class object declare_classes() registered under `name`, to add members to.
template <typename T, typename... Options> py::class_<T, Options...> bound_class(py::module_ &m, const char *name) {
    return py::reinterpret_borrow<py::class_<T, Options...>>(m.attr(name));
}

// Default arguments shown as Python text in signatures (help(), type stubs):
// `target=Target()` (the environment's target) and `tail=TailStrategy.Auto`.
inline py::arg_v target_arg() {
    return py::arg_v("target", Halide::Target(), "Target()");
}
inline py::arg_v tail_arg() {
    return py::arg_v("tail", Halide::TailStrategy::Auto, "TailStrategy.Auto");
}

// A Python value as an Expr, with upstream's rules: Expr, Var, FuncRef as
// they are; bool as a Bool constant; an int as Int(32) when it fits, else
// Int(64), else (beyond 64 bits) a float; a float as a Float(32) constant,
// with a RuntimeWarning when that loses precision. `what` names the argument
// in the TypeError raised for anything else.
Halide::Expr to_expr(py::handle value, const char *what = "value");

// Like to_expr, but a Python bool is the integer 0 or 1 (as in arithmetic).
Halide::Expr to_arith_expr(py::handle value, const char *what = "operand");

// A Python float as a Float(32) Expr, warning when it loses precision.
Halide::Expr float_to_expr(double value);

// print()-style arguments from args[first:]: Exprs, numbers, and strings as text.
std::vector<Halide::Expr> print_args(const py::args &args, size_t first);

// True when `value` is a Python int (or bool, or an object with __index__,
// such as a NumPy integer) that fits a signed 32-bit int; sets *out.
bool as_small_int(py::handle value, int *out);

// The Python operators of Expr (arithmetic, comparisons, bitwise, reflected
// ones, unary), as (name, function of self and other) pairs. A function
// returns NotImplemented when `other` is not a value it takes.
using BinaryOp = py::object (*)(py::handle self, py::handle other);
using UnaryOp = py::object (*)(py::handle self);
const std::vector<std::pair<const char *, BinaryOp>> &expr_binary_operators();
const std::vector<std::pair<const char *, UnaryOp>> &expr_unary_operators();

// Installs those operators on a class whose instances convert to Expr
// (Expr, Var, FuncRef).
template <typename T> void add_expr_operators(py::class_<T> &cls) {
    for (const auto &op : expr_binary_operators()) {
        cls.def(op.first, op.second, py::is_operator());
    }
    for (const auto &op : expr_unary_operators()) {
        cls.def(op.first, op.second);
    }
    // Defining __eq__ would otherwise leave the class unhashable anyway; say so.
    cls.attr("__hash__") = py::none();
}

// A Var, RVar or RDom (one-dimensional) as a loop to schedule; a TypeError
// naming `what` for anything else. A list: reorder(x, y) or reorder([x, y]).
Halide::VarOrRVar to_var_or_rvar(py::handle value, const char *what);
std::vector<Halide::VarOrRVar> var_or_rvar_list(const py::tuple &args, const char *what);

// Runs a pipeline with the GIL released, so that its threads can write
// print() and trace output to sys.stdout (py_output.cpp): declare one
// around the C++ call that runs it, touching no Python object meanwhile.
class PipelineRun {
public:
    PipelineRun() = default;
    PipelineRun(const PipelineRun &) = delete;
    PipelineRun &operator=(const PipelineRun &) = delete;

private:
    // Counts the run while the GIL is released: constructed before the
    // release and destroyed after the GIL is taken back (members are
    // destroyed in reverse order). No heap allocation on the call path.
    struct Counted {
        Counted();
        ~Counted();
        Counted(const Counted &) = delete;
        Counted &operator=(const Counted &) = delete;
    };
    Counted counted_;
    py::gil_scoped_release release_;
};

// "<halide.Expr of type int32: (x + 1)>"-style text of an Expr.
std::string expr_repr(const Halide::Expr &e);
// A list of halide.Range or (min, extent) pairs, as set_estimates takes.
Halide::Region estimates_region(const py::sequence &estimates, const char *what);
std::string type_name(const Halide::Type &t);

} // namespace halide_py

#endif
