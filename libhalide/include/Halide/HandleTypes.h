// The C++ type behind a Handle: what type_of<T *>() records in
// Type::handle_type, so two handles of different pointee types are
// different Types and type_to_c_type() can name them. The names are
// upstream's (global namespace, as upstream has them); a user makes their
// own struct known with HALIDE_DECLARE_EXTERN_STRUCT_TYPE(MyStruct).
#ifndef HALIDE_HANDLE_TYPES_H
#define HALIDE_HANDLE_TYPES_H

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "HalideRuntime.h"

namespace Halide {
struct float16_t;
struct bfloat16_t;
namespace Internal {
// Splits "a::b::c" into the namespaces {"a", "b"} (appended to `namespaces`)
// and returns "c".
std::string extract_namespaces(const std::string &name, std::vector<std::string> &namespaces);
} // namespace Internal
} // namespace Halide

// A C++ type's name and what kind of name it is.
struct halide_cplusplus_type_name {
    enum CPPTypeType {
        Simple, // int32_t, float, a typedef
        Struct, // struct name
        Class,  // class name
        Union,  // union name
        Enum,   // enum name
    } cpp_type_type;
    std::string name;

    halide_cplusplus_type_name(CPPTypeType kind, const std::string &n) : cpp_type_type(kind), name(n) {}
    bool operator==(const halide_cplusplus_type_name &o) const {
        return cpp_type_type == o.cpp_type_type && name == o.name;
    }
    bool operator!=(const halide_cplusplus_type_name &o) const { return !(*this == o); }
    bool operator<(const halide_cplusplus_type_name &o) const {
        return cpp_type_type != o.cpp_type_type ? cpp_type_type < o.cpp_type_type : name < o.name;
    }
};

// The full C++ type of a handle: the pointee's name, its namespaces and
// enclosing types, and the qualifiers and pointers around it.
struct halide_handle_cplusplus_type {
    halide_cplusplus_type_name inner_name;
    std::vector<std::string> namespaces;
    std::vector<halide_cplusplus_type_name> enclosing_types;

    // Bits of one level of qualification; Pointer is the indirection.
    enum Modifier : uint8_t {
        Const = 1 << 0,
        Volatile = 1 << 1,
        Restrict = 1 << 2,
        Pointer = 1 << 3,
        FunctionTypedef = 1 << 4, // a function pointer (Pointer is set too)
    };
    // One entry per level, the innermost first.
    std::vector<uint8_t> cpp_type_modifiers;

    enum ReferenceType : uint8_t { NotReference = 0, LValueReference = 1, RValueReference = 2 };
    ReferenceType reference_type;

    halide_handle_cplusplus_type(const halide_cplusplus_type_name &inner, const std::vector<std::string> &ns = {},
                                 const std::vector<halide_cplusplus_type_name> &enclosing = {},
                                 const std::vector<uint8_t> &modifiers = {}, ReferenceType ref = NotReference)
        : inner_name(inner), namespaces(ns), enclosing_types(enclosing), cpp_type_modifiers(modifiers),
          reference_type(ref) {}

    template <typename T> static halide_handle_cplusplus_type make();
};

// The name of a C++ type a handle may point to; unknown types are "void".
template <typename T> struct halide_c_type_to_name {
    static constexpr bool known_type = false;
    static halide_cplusplus_type_name name() { return {halide_cplusplus_type_name::Simple, "void"}; }
};

#define HALIDE_DECLARE_EXTERN_TYPE(TypeType, Type)                                                                     \
    template <> struct halide_c_type_to_name<Type> {                                                                   \
        static constexpr bool known_type = true;                                                                       \
        static halide_cplusplus_type_name name() { return {halide_cplusplus_type_name::TypeType, #Type}; }             \
    }
#define HALIDE_DECLARE_EXTERN_SIMPLE_TYPE(T) HALIDE_DECLARE_EXTERN_TYPE(Simple, T)
#define HALIDE_DECLARE_EXTERN_STRUCT_TYPE(T) HALIDE_DECLARE_EXTERN_TYPE(Struct, T)
#define HALIDE_DECLARE_EXTERN_CLASS_TYPE(T) HALIDE_DECLARE_EXTERN_TYPE(Class, T)
#define HALIDE_DECLARE_EXTERN_UNION_TYPE(T) HALIDE_DECLARE_EXTERN_TYPE(Union, T)

HALIDE_DECLARE_EXTERN_SIMPLE_TYPE(char);
HALIDE_DECLARE_EXTERN_SIMPLE_TYPE(bool);
HALIDE_DECLARE_EXTERN_SIMPLE_TYPE(int8_t);
HALIDE_DECLARE_EXTERN_SIMPLE_TYPE(uint8_t);
HALIDE_DECLARE_EXTERN_SIMPLE_TYPE(int16_t);
HALIDE_DECLARE_EXTERN_SIMPLE_TYPE(uint16_t);
HALIDE_DECLARE_EXTERN_SIMPLE_TYPE(int32_t);
HALIDE_DECLARE_EXTERN_SIMPLE_TYPE(uint32_t);
HALIDE_DECLARE_EXTERN_SIMPLE_TYPE(int64_t);
HALIDE_DECLARE_EXTERN_SIMPLE_TYPE(uint64_t);
HALIDE_DECLARE_EXTERN_SIMPLE_TYPE(Halide::float16_t);
HALIDE_DECLARE_EXTERN_SIMPLE_TYPE(Halide::bfloat16_t);
HALIDE_DECLARE_EXTERN_SIMPLE_TYPE(halide_task_t);
HALIDE_DECLARE_EXTERN_SIMPLE_TYPE(halide_loop_task_t);
HALIDE_DECLARE_EXTERN_SIMPLE_TYPE(float);
HALIDE_DECLARE_EXTERN_SIMPLE_TYPE(double);
HALIDE_DECLARE_EXTERN_STRUCT_TYPE(halide_buffer_t);
HALIDE_DECLARE_EXTERN_STRUCT_TYPE(halide_dimension_t);
HALIDE_DECLARE_EXTERN_STRUCT_TYPE(halide_device_interface_t);
HALIDE_DECLARE_EXTERN_STRUCT_TYPE(halide_filter_metadata_t);
HALIDE_DECLARE_EXTERN_STRUCT_TYPE(halide_semaphore_t);
HALIDE_DECLARE_EXTERN_STRUCT_TYPE(halide_semaphore_acquire_t);
HALIDE_DECLARE_EXTERN_STRUCT_TYPE(halide_parallel_task_t);

template <typename T> halide_handle_cplusplus_type halide_handle_cplusplus_type::make() {
    using NoRef = std::remove_reference_t<T>;
    constexpr bool is_ptr = std::is_pointer<T>::value;
    constexpr bool is_fn_ptr = std::is_pointer<NoRef>::value && std::is_function<std::remove_pointer_t<NoRef>>::value;
    // The pointee (a function pointer is named as a whole).
    using Base = std::conditional_t<is_fn_ptr, NoRef, std::remove_pointer_t<NoRef>>;
    using Bare = std::remove_cv_t<Base>;
    static_assert(halide_c_type_to_name<Bare>::known_type || is_ptr, "Unknown types must be pointers");
    uint8_t modifiers = 0;
    modifiers |= is_fn_ptr ? FunctionTypedef : 0;
    modifiers |= is_ptr ? Pointer : 0;
    modifiers |= std::is_const<Base>::value ? Const : 0;
    modifiers |= std::is_volatile<Base>::value ? Volatile : 0;
    ReferenceType ref = std::is_lvalue_reference<T>::value   ? LValueReference
                        : std::is_rvalue_reference<T>::value ? RValueReference
                                                             : NotReference;
    halide_handle_cplusplus_type t(halide_c_type_to_name<Bare>::name(), {}, {}, {modifiers}, ref);
    t.inner_name.name = Halide::Internal::extract_namespaces(t.inner_name.name, t.namespaces);
    return t;
}

// The handle type of C++ type T, or nullptr (void *) for a non-pointer.
// The pointer is to a static, never freed.
template <typename T> struct halide_handle_traits {
    static const halide_handle_cplusplus_type *type_info() {
        if constexpr (std::is_pointer<T>::value || std::is_reference<T>::value) {
            static const halide_handle_cplusplus_type info = halide_handle_cplusplus_type::make<T>();
            return &info;
        } else {
            return nullptr;
        }
    }
};

#endif
