// Every class of halide._compiler, registered before any function or method
// is bound: pybind11 writes a signature's types into the docstring when the
// function is bound, so a class registered later would show as its C++ name
// (`Halide::Expr`) in help() and in the generated type stubs. The define_*
// functions add the members to these class objects (bound_class).
#include "py_compiler.h"

namespace halide_py {

void declare_classes(py::module_ &m) {
    using namespace Halide;
    py::class_<Type>(m, "Type");
    py::class_<Var>(m, "Var");
    py::class_<Range>(m, "Range");
    py::class_<RVar>(m, "RVar");
    py::class_<RDom>(m, "RDom");
    // dynamic_attr: see func_ref() in py_func.cpp.
    py::class_<FuncRef>(m, "FuncRef", py::dynamic_attr());
    py::class_<Func>(m, "Func");
    py::class_<Tuple>(m, "Tuple");
    py::class_<VarOrRVar>(m, "VarOrRVar");
    py::class_<Stage>(m, "Stage");
    py::class_<LoopLevel>(m, "LoopLevel");
    py::class_<Param<>>(m, "Param");
    py::class_<Parameter>(m, "Parameter");
    py::class_<BufferConstraint>(m, "BufferConstraint");
    py::class_<Internal::Dimension>(m, "Dimension");
    py::class_<OutputImageParam>(m, "OutputImageParam");
    py::class_<ImageParam, OutputImageParam>(m, "ImageParam");
    py::class_<Expr>(m, "Expr");
    py::class_<FuncTupleElementRef, Expr>(m, "FuncTupleElementRef");
    py::class_<Target>(m, "Target");
    py::class_<Buffer<>>(m, "Buffer", py::buffer_protocol(),
                         "An image: b[x, y] reads it in a definition, realize() writes into it. Shares memory with "
                         "NumPy both ways; by default NumPy's last axis is dimension 0.");
    py::class_<ArgumentEstimates>(m, "ArgumentEstimates");
    py::class_<Argument>(m, "Argument");
    py::class_<Pipeline>(m, "Pipeline");
    py::class_<Callable>(m, "Callable");
}

} // namespace halide_py
