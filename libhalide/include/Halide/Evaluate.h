// Halide::evaluate: JIT-compiles and runs a scalar expression (a 0-D Func)
// and returns its value, as upstream's. The Tuple form writes each value
// through a pointer: evaluate(Tuple(a, b), &x, &y). evaluate_may_gpu is
// the same.
#ifndef HALIDE_EVALUATE_H
#define HALIDE_EVALUATE_H

#include "Halide/Func.h"

namespace Halide {

namespace Internal {
// "Can't evaluate expression ... of type ... as a scalar of type ..." unless t == wanted.
void check_evaluate_type(const Expr &e, Type t, Type wanted);
} // namespace Internal

// With a JITUserContext, the pipeline runs with it (its handlers, as
// Func::realize(context, ...)); without, with none.
template <typename T> T evaluate(JITUserContext *ctx, const Expr &e) {
    Internal::check_evaluate_type(e, e.defined() ? e.type() : Type(), type_of<T>());
    Func f;
    f() = e;
    Buffer<T, 0> im = f.realize(ctx, std::vector<int32_t>{});
    return im();
}

template <typename T> T evaluate(const Expr &e) {
    return evaluate<T>(nullptr, e);
}

template <typename First, typename... Rest>
void evaluate(JITUserContext *ctx, const Tuple &t, First first, Rest... rest) {
    static_assert((std::is_pointer<First>::value && ... && std::is_pointer<Rest>::value),
                  "evaluate(Tuple, ...) writes its results through pointers");
    user_assert(t.size() == 1 + sizeof...(Rest))
        << "evaluate: a Tuple of " << t.size() << " values given " << 1 + sizeof...(Rest) << " results to write";
    Func f;
    f() = t;
    Realization r = f.realize(ctx, std::vector<int32_t>{});
    size_t i = 0;
    auto assign = [&](auto *out) {
        using U = std::remove_pointer_t<decltype(out)>;
        Internal::check_evaluate_type(t[i], t[i].type(), type_of<U>());
        Buffer<U, 0> b = r[i++];
        *out = b();
    };
    assign(first);
    (assign(rest), ...);
}

template <typename First, typename... Rest> void evaluate(const Tuple &t, First first, Rest... rest) {
    evaluate(static_cast<JITUserContext *>(nullptr), t, first, rest...);
}

// A call of a Tuple-valued Func: evaluate(f(), &a, &b) (upstream converts
// the call to a Tuple).
template <typename First, typename... Rest> void evaluate(const FuncRef &f, First first, Rest... rest) {
    evaluate(Tuple(f), first, rest...);
}

// Upstream's evaluate() that may run on a GPU when the JIT target has one;
// here it runs where the JIT target's other pipelines do, with the same result.
template <typename T> T evaluate_may_gpu(const Expr &e) {
    return evaluate<T>(e);
}

template <typename First, typename... Rest> void evaluate_may_gpu(const Tuple &t, First first, Rest... rest) {
    evaluate(t, first, rest...);
}

template <typename First, typename... Rest> void evaluate_may_gpu(const FuncRef &f, First first, Rest... rest) {
    evaluate(Tuple(f), first, rest...);
}

} // namespace Halide

#endif
