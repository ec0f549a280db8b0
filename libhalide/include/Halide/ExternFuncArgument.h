// Halide::ExternFuncArgument and NameMangling: what Func::define_extern
// passes to the C function that computes an extern stage, and how that
// function's symbol is named.
#ifndef HALIDE_EXTERNFUNCARGUMENT_H
#define HALIDE_EXTERNFUNCARGUMENT_H

#include <memory>

#include "Halide/Buffer.h"
#include "Halide/Expr.h"
#include "Halide/Param.h"

namespace Halide {

class Func;
namespace Internal {
struct FunctionContents;
}

// The symbol an extern stage calls: Default follows the target (C names
// unless it has the c_plus_plus_name_mangling feature), C is the name as
// given, CPlusPlus the Itanium C++ name of `int name(halide_buffer_t *, ...)`
// ("ns::name" puts it in namespace ns).
enum class NameMangling {
    Default,
    C,
    CPlusPlus,
};

// One argument of an extern stage, in the order the C function takes them:
// a Func (computed first, over the region the stage's bounds query asks
// for) or an input buffer, each passed as a halide_buffer_t * (one per value
// of a Tuple-valued Func); or a scalar Expr, passed by value.
struct ExternFuncArgument {
    enum ArgType { UndefinedArg = 0, FuncArg, BufferArg, ExprArg, ImageParamArg };
    ArgType arg_type = UndefinedArg;
    std::shared_ptr<Internal::FunctionContents> func;
    Buffer<> buffer;
    Expr expr;
    ImageParam image_param; // upstream keeps the ImageParam's Parameter

    ExternFuncArgument() = default;
    ExternFuncArgument(std::shared_ptr<Internal::FunctionContents> f) : arg_type(FuncArg), func(std::move(f)) {}
    ExternFuncArgument(const Func &f);
    template <typename T, int Dims>
    ExternFuncArgument(const Buffer<T, Dims> &b) : arg_type(BufferArg), buffer(Buffer<>(b)) {}
    ExternFuncArgument(Expr e) : arg_type(ExprArg), expr(std::move(e)) {}
    ExternFuncArgument(int e) : arg_type(ExprArg), expr(e) {}
    ExternFuncArgument(float e) : arg_type(ExprArg), expr(e) {}
    template <typename T> ExternFuncArgument(const Param<T> &p) : arg_type(ExprArg), expr(p) {}
    ExternFuncArgument(const ImageParam &p) : arg_type(ImageParamArg), image_param(p) {}

    bool is_func() const { return arg_type == FuncArg; }
    bool is_expr() const { return arg_type == ExprArg; }
    bool is_buffer() const { return arg_type == BufferArg; }
    bool is_image_param() const { return arg_type == ImageParamArg; }
    bool defined() const { return arg_type != UndefinedArg; }
};

} // namespace Halide

#endif
