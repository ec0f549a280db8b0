// abi_layout_cpp.cpp: the checks of abi_layout.c compiled as C++, so the
// C++ view of HalideRuntime.h (constructors, typed enums, helpers) is held
// to exactly the same binary layout as the C view.
#include "abi_layout.c"

#include <type_traits>

// The C++ conveniences must not change what the structs are: kernels and
// loaders copy them bytewise and read fields at fixed offsets, so each one
// stays standard-layout and trivially copyable.
#define ABI_ASSERT_PLAIN(T)                                                                                            \
    static_assert(std::is_standard_layout<T>::value, #T " must be standard-layout");                                   \
    static_assert(std::is_trivially_copyable<T>::value, #T " must be trivially copyable")

ABI_ASSERT_PLAIN(halide_type_t);
ABI_ASSERT_PLAIN(halide_dimension_t);
ABI_ASSERT_PLAIN(halide_buffer_t);
ABI_ASSERT_PLAIN(halide_device_interface_t);
ABI_ASSERT_PLAIN(halide_scalar_value_t);
ABI_ASSERT_PLAIN(halide_filter_argument_t);
ABI_ASSERT_PLAIN(halide_filter_metadata_t);
ABI_ASSERT_PLAIN(halide_semaphore_t);
ABI_ASSERT_PLAIN(halide_semaphore_acquire_t);
ABI_ASSERT_PLAIN(halide_parallel_task_t);

// In C++ the type code is a one-byte enum, as upstream declares it.
static_assert(sizeof(halide_type_code_t) == 1, "halide_type_code_t has uint8_t as underlying type in C++");
static_assert(std::is_same<std::underlying_type<halide_type_code_t>::type, uint8_t>::value,
              "halide_type_code_t has uint8_t as underlying type in C++");
