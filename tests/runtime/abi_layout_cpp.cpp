// abi_layout_cpp.cpp: the checks of abi_layout.c compiled as C++, so the
// C++ view of HalideRuntime.h (constructors, typed enums, helpers) is held
// to exactly the same binary layout as the C view.
#include "abi_layout.c"
