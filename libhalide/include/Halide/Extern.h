// Calls of C functions from Halide expressions, as upstream's macros:
//   extern "C" HALIDE_EXPORT_SYMBOL float my_func(int x, float y);
//   HalideExtern_2(float, my_func, int, float);
// defines Expr my_func(Expr, Expr), a call the JIT resolves to the
// process's symbol `my_func` (an AOT pipeline links against it). Each
// argument must have the type given for it. HalidePureExtern_N (upstream's
// declaration of a function without side effects) is accepted too; here
// both kinds of call are compiled alike.
#ifndef HALIDE_EXTERN_H
#define HALIDE_EXTERN_H

#include <string>
#include <vector>

#include "Halide/Expr.h"
#include "Halide/Type.h"

#ifndef HALIDE_EXPORT_SYMBOL
#define HALIDE_EXPORT_SYMBOL __attribute__((visibility("default")))
#endif

namespace Halide {

// The user context of the call the pipeline runs in, as a handle (void *):
// pass it to a C function (HalideExtern_*, define_extern) to give it that
// context. Under the JIT it is the JITUserContext * of the call (the one
// given to realize or a Callable, or one the call made); compiled ahead of
// time it is the __user_context argument (target feature user_context), or
// null without one.
Expr user_context_value();

namespace Internal {
// A call of the C function `name` returning `ret`; argument i must be of type arg_types[i].
Expr make_extern_call(Type ret, const std::string &name, const std::vector<Expr> &args,
                      const std::vector<Type> &arg_types, bool pure);
} // namespace Internal
} // namespace Halide

#define HALIDE_EXTERN_CALL_(pure, rt, name, ...)                                                                       \
    Halide::Internal::make_extern_call(Halide::type_of<rt>(), #name, __VA_ARGS__, pure)

#define HALIDE_EXTERN_1_(pure, rt, name, t1)                                                                           \
    Halide::Expr name(const Halide::Expr &a1) {                                                                        \
        return HALIDE_EXTERN_CALL_(pure, rt, name, {a1}, {Halide::type_of<t1>()});                                     \
    }
#define HALIDE_EXTERN_2_(pure, rt, name, t1, t2)                                                                       \
    Halide::Expr name(const Halide::Expr &a1, const Halide::Expr &a2) {                                                \
        return HALIDE_EXTERN_CALL_(pure, rt, name, {a1, a2}, {Halide::type_of<t1>(), Halide::type_of<t2>()});          \
    }
#define HALIDE_EXTERN_3_(pure, rt, name, t1, t2, t3)                                                                   \
    Halide::Expr name(const Halide::Expr &a1, const Halide::Expr &a2, const Halide::Expr &a3) {                        \
        return HALIDE_EXTERN_CALL_(pure, rt, name, {a1, a2, a3},                                                       \
                                   {Halide::type_of<t1>(), Halide::type_of<t2>(), Halide::type_of<t3>()});             \
    }
#define HALIDE_EXTERN_4_(pure, rt, name, t1, t2, t3, t4)                                                               \
    Halide::Expr name(const Halide::Expr &a1, const Halide::Expr &a2, const Halide::Expr &a3,                          \
                      const Halide::Expr &a4) {                                                                        \
        return HALIDE_EXTERN_CALL_(                                                                                    \
            pure, rt, name, {a1, a2, a3, a4},                                                                          \
            {Halide::type_of<t1>(), Halide::type_of<t2>(), Halide::type_of<t3>(), Halide::type_of<t4>()});             \
    }
#define HALIDE_EXTERN_5_(pure, rt, name, t1, t2, t3, t4, t5)                                                           \
    Halide::Expr name(const Halide::Expr &a1, const Halide::Expr &a2, const Halide::Expr &a3, const Halide::Expr &a4,  \
                      const Halide::Expr &a5) {                                                                        \
        return HALIDE_EXTERN_CALL_(pure, rt, name, {a1, a2, a3, a4, a5},                                               \
                                   {Halide::type_of<t1>(), Halide::type_of<t2>(), Halide::type_of<t3>(),               \
                                    Halide::type_of<t4>(), Halide::type_of<t5>()});                                    \
    }

#define HalideExtern_1(rt, name, t1) HALIDE_EXTERN_1_(false, rt, name, t1)
#define HalideExtern_2(rt, name, t1, t2) HALIDE_EXTERN_2_(false, rt, name, t1, t2)
#define HalideExtern_3(rt, name, t1, t2, t3) HALIDE_EXTERN_3_(false, rt, name, t1, t2, t3)
#define HalideExtern_4(rt, name, t1, t2, t3, t4) HALIDE_EXTERN_4_(false, rt, name, t1, t2, t3, t4)
#define HalideExtern_5(rt, name, t1, t2, t3, t4, t5) HALIDE_EXTERN_5_(false, rt, name, t1, t2, t3, t4, t5)
#define HalidePureExtern_1(rt, name, t1) HALIDE_EXTERN_1_(true, rt, name, t1)
#define HalidePureExtern_2(rt, name, t1, t2) HALIDE_EXTERN_2_(true, rt, name, t1, t2)
#define HalidePureExtern_3(rt, name, t1, t2, t3) HALIDE_EXTERN_3_(true, rt, name, t1, t2, t3)
#define HalidePureExtern_4(rt, name, t1, t2, t3, t4) HALIDE_EXTERN_4_(true, rt, name, t1, t2, t3, t4)
#define HalidePureExtern_5(rt, name, t1, t2, t3, t4, t5) HALIDE_EXTERN_5_(true, rt, name, t1, t2, t3, t4, t5)

#endif
