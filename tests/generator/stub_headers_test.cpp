// The C++ stubs the driver writes (-e cpp_stub) for the other test
// generators, all included in one program: they compile together (an alias
// and its generator share their enum), and their members are those upstream
// Halide 21's driver writes for the same generators (upstream_forms.stub.h
// written by upstream's libHalide_GenGen from upstream_forms_generator.cpp).
#include <cstdio>
#include <type_traits>
#include <vector>

#include "add_buffers.stub.h"
#include "brighten.stub.h"
#include "brighten_float.stub.h"
#include "configure_sum.stub.h"
#include "upstream_forms.stub.h"

using Halide::Expr;
using Halide::Func;
using Halide::Internal::StubInputBuffer;
using Halide::Internal::StubOutputBuffer;

// What upstream 21 writes for upstream_forms.
static_assert(std::is_same<decltype(upstream_forms::Inputs::images), std::vector<StubInputBuffer<uint8_t>>>::value);
static_assert(std::is_same<decltype(upstream_forms::Inputs::bias), Func>::value);
static_assert(std::is_same<decltype(upstream_forms::Inputs::gains), std::vector<Expr>>::value);
static_assert(std::is_same<decltype(upstream_forms::Inputs::extras), std::vector<Func>>::value);
static_assert(std::is_same<decltype(upstream_forms::GeneratorParams::op), Enum_op>::value);
static_assert(std::is_same<decltype(upstream_forms::GeneratorParams::copies), int32_t>::value);
static_assert(std::is_same<decltype(upstream_forms::Outputs::combined), Func>::value);
static_assert(std::is_same<decltype(upstream_forms::Outputs::scaled), std::vector<Func>>::value);
static_assert(std::is_same<decltype(upstream_forms::Outputs::diffs), std::vector<StubOutputBuffer<int16_t>>>::value);
static_assert(std::is_same<decltype(upstream_forms::Outputs::assigned), Func>::value);
// Output<Buffer<>> (its type decided in generate()) and a GeneratorParam<Type>.
static_assert(std::is_same<decltype(brighten::Outputs::output), StubOutputBuffer<>>::value);
static_assert(std::is_same<decltype(brighten::GeneratorParams::output_type), Halide::Type>::value);
// An alias is a stub of its own (named after it).
static_assert(std::is_same<decltype(brighten_float::Inputs::input), decltype(brighten::Inputs::input)>::value);

int main() {
    // The defaults are the declared values (example_generators.cpp, upstream_forms_generator.cpp).
    brighten::GeneratorParams b;
    upstream_forms::GeneratorParams u;
    bool ok = b.vector_width == 16 && b.parallel && b.gain == 1.0f && b.output_type == Halide::UInt(8) &&
              b.rounding == Enum_rounding::floor && u.copies == 2 && u.op == Enum_op::add;
    std::printf(ok ? "Success!\n" : "FAIL: a stub's default GeneratorParams differ from the declared ones\n");
    return ok ? 0 : 1;
}
