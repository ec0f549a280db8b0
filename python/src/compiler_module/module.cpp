// halide._compiler: the compiler's Python bindings, the only Python module
// that links libhalide. halide/__init__.py re-exports its names lazily.
#include "py_compiler.h"

PYBIND11_MODULE(_compiler, m) {
    m.doc() = "The Halide compiler: Func, Var, Expr, Buffer, ... (use them through `import halide`)";
    // Classes first, so signatures that mention them resolve; enums are
    // defined before the functions that take them.
    halide_py::declare_classes(m);
    halide_py::define_error(m);
    halide_py::define_output(m);
    halide_py::define_type(m);
    halide_py::define_var(m);
    halide_py::define_rdom(m);
    halide_py::define_tuple(m);
    halide_py::define_func(m);
    halide_py::define_func_requirements(m);
    halide_py::define_stage(m);
    halide_py::define_param(m);
    halide_py::define_expr(m);
    halide_py::define_operators(m);
    halide_py::define_integer_ops(m);
    halide_py::define_target(m);
    halide_py::define_target_queries(m);
    halide_py::define_random(m);
    halide_py::define_derivative(m);
    halide_py::define_scatter_gather(m);
    halide_py::define_lambda(m);
    halide_py::define_require(m);
    halide_py::define_buffer(m);
    halide_py::define_pipeline(m);
    halide_py::define_callable(m);
    halide_py::define_generator(m);
    halide_py::define_boundary_conditions(m);
    halide_py::define_specialize(m);
    halide_py::define_device(m);
    halide_py::define_evaluate(m);
    halide_py::define_extern(m);
    halide_py::define_user_context(m);
    halide_py::define_storage(m);
    halide_py::define_memoize(m);
    halide_py::define_estimates(m);
    halide_py::define_loop_level(m);
    halide_py::define_prefetch(m);
    halide_py::define_parameter(m);
    // Before Module, whose get_auto_scheduler_results returns its class.
    halide_py::define_autoscheduler(m);
    halide_py::define_module(m);
    halide_py::define_arginfo(m);
    halide_py::define_serialize(m);
}
