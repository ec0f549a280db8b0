// Halide::JITExtern: a C function the JIT binds to a name that extern calls
// (define_extern, HalideExtern_*) use, instead of the process's symbol of
// that name (Pipeline::set_jit_externs), as upstream's ExternCFunction and
// JITExtern. A JITExtern made from a Pipeline or Func binds that pipeline's
// entry point, compiled for the JIT: the extern is called with its
// arguments (__user_context first, then inputs, then output buffers).
#ifndef HALIDE_JIT_EXTERN_H
#define HALIDE_JIT_EXTERN_H

#include <memory>
#include <type_traits>
#include <vector>

#include "Halide/Type.h"

namespace Halide {

class Func;
class Pipeline;

// The C signature of an extern function: result (unless void) and arguments.
class ExternSignature {
public:
    ExternSignature() = default;
    ExternSignature(const Type &ret_type, bool is_void_return, const std::vector<Type> &arg_types)
        : ret_type_(ret_type), is_void_return_(is_void_return), arg_types_(arg_types) {}
    template <typename RT, typename... Args>
    explicit ExternSignature(RT (*)(Args...))
        : ret_type_(type_of_or_void<RT>()), is_void_return_(std::is_void<RT>::value), arg_types_{type_of<Args>()...} {}

    const Type &ret_type() const { return ret_type_; }
    bool is_void_return() const { return is_void_return_; }
    const std::vector<Type> &arg_types() const { return arg_types_; }

private:
    template <typename T> static Type type_of_or_void() {
        if constexpr (std::is_void<T>::value) {
            return Type();
        } else {
            return type_of<T>();
        }
    }
    Type ret_type_;
    bool is_void_return_ = false;
    std::vector<Type> arg_types_;
};

// A C function's address and signature.
class ExternCFunction {
public:
    ExternCFunction() = default;
    ExternCFunction(void *address, const ExternSignature &signature) : address_(address), signature_(signature) {}
    template <typename RT, typename... Args>
    ExternCFunction(RT (*f)(Args...)) : ExternCFunction(reinterpret_cast<void *>(f), ExternSignature(f)) {}

    void *address() const { return address_; }
    const ExternSignature &signature() const { return signature_; }

private:
    void *address_ = nullptr;
    ExternSignature signature_;
};

class JITExtern {
public:
    explicit JITExtern(const Pipeline &pipeline);
    explicit JITExtern(const Func &func);
    explicit JITExtern(const ExternCFunction &extern_c_function);
    template <typename RT, typename... Args> explicit JITExtern(RT (*f)(Args...)) : JITExtern(ExternCFunction(f)) {}

    // The Pipeline this was made from (an undefined one for a C function).
    const Pipeline &pipeline() const { return *pipeline_; }
    const ExternCFunction &extern_c_function() const { return extern_c_function_; }

private:
    std::shared_ptr<Pipeline> pipeline_;
    ExternCFunction extern_c_function_;
};

} // namespace Halide

#endif
