// Halide::Callable: a pipeline JIT-compiled once with a fixed argument list
// (Pipeline::compile_to_callable), called like a function with its inputs
// and then its output buffers. Cheap to copy (copies share the code) and
// safe to call from several threads at once.
#ifndef HALIDE_CALLABLE_H
#define HALIDE_CALLABLE_H

#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "Halide/Argument.h"
#include "Halide/Buffer.h"
#include "Halide/Error.h"

namespace Halide {

struct JITUserContext;

namespace Internal {
struct CallableContents;
}

class Callable {
public:
    Callable() = default;
    bool defined() const { return contents_ != nullptr; }
    const std::string &name() const;
    // In call order: the arguments given to compile_to_callable, then one
    // output buffer per output Func (and per value of a Tuple).
    const std::vector<Argument> &arguments() const;

    // As upstream: argv[0] points to a JITUserContext * (which may be null),
    // argv[1 + i] is argument i: a halide_buffer_t * for a buffer, a
    // pointer to the value (of exactly the argument's type) for a scalar;
    // argc counts both. Returns 0, or throws RuntimeError with the
    // pipeline's message (with a custom_error handler set, the messages go
    // to it and the pipeline's error code is returned).
    int call_argv_fast(size_t argc, const void *const *argv) const;

    // c(input, scale, output), or c(context, input, scale, output) with a
    // JITUserContext * whose handlers are used for this call (those it
    // leaves unset are the pipeline's at compile_to_callable time): Buffers
    // (any Buffer<T, D>, or a halide_buffer_t *) and scalars of exactly the
    // argument's type; a pointer for a handle argument (Param<void *>).
    template <typename... Args> int operator()(const Args &...args) const { return call_with(args...); }

private:
    friend class Pipeline;
    template <typename First, typename... Rest> int call_with(const First &first, const Rest &...rest) const {
        if constexpr (std::is_convertible_v<First, JITUserContext *>) {
            return call_packed(static_cast<JITUserContext *>(first), rest...);
        } else {
            return call_packed(nullptr, first, rest...);
        }
    }
    int call_with() const { return call_packed(nullptr); }
    template <typename... Args> int call_packed(JITUserContext *context, const Args &...args) const {
        const void *argv[sizeof...(Args) + 1] = {&context};
        size_t i = 0;
        ((argv[i + 1] = pointer_to(i, args), i++), ...);
        return call_argv_fast(sizeof...(Args) + 1, argv);
    }
    // Checks argument i's kind (and a scalar's type) against `t`/`is_buffer`.
    void check_argument(size_t i, bool is_buffer, const Type &t) const;
    template <typename T, int D> const void *pointer_to(size_t i, const Buffer<T, D> &b) const {
        check_argument(i, true, Type());
        return b.raw_buffer();
    }
    const void *pointer_to(size_t i, halide_buffer_t *const &b) const {
        check_argument(i, true, Type());
        return b;
    }
    template <typename T> const void *pointer_to(size_t i, const T &v) const {
        static_assert(std::is_arithmetic<T>::value || std::is_pointer<T>::value,
                      "Callable arguments are Buffers, scalars and pointers (for handle arguments)");
        if constexpr (std::is_pointer<T>::value) {
            check_argument(i, false, Handle()); // any handle argument takes any pointer, as upstream's
        } else {
            check_argument(i, false, type_of<T>());
        }
        return &v;
    }
    std::shared_ptr<Internal::CallableContents> contents_;
};

} // namespace Halide

#endif
