// A generator for tests/python/test_upstream_kernel_interface.py, written
// against upstream Halide's Generator API only, so the same source builds
// with upstream Halide 14 (Debian's libhalide14-0-dev) and with our compiler.
//
// kernel_interface: one scalar input of every type halide.runtime passes,
// a 2-D uint8 input and three outputs, one of them a Tuple (two buffers,
// "pair.0" and "pair.1"). Every output is elementwise except pair.1, which
// also depends on the coordinates so the test can tell the axis order.
//
//   total(x, y)  = int64(input) + flag + i8 + i16 + i32 + i64 + u8 + u16 + u32 + u64
//   scaled(x, y) = float64(input) * float64(f32) + f64
//   pair(x, y)   = {uint8(input + u8) (wrapping), int32(input) + x + 1000 * y}
#include "Halide.h"

namespace {

using namespace Halide;

class KernelInterface : public Halide::Generator<KernelInterface> {
public:
    Input<Buffer<uint8_t>> input{"input", 2};
    Input<bool> flag{"flag"};
    Input<int8_t> i8{"i8"};
    Input<int16_t> i16{"i16"};
    Input<int32_t> i32{"i32"};
    Input<int64_t> i64{"i64"};
    Input<uint8_t> u8{"u8"};
    Input<uint16_t> u16{"u16"};
    Input<uint32_t> u32{"u32"};
    Input<uint64_t> u64{"u64"};
    Input<float> f32{"f32"};
    Input<double> f64{"f64"};

    Output<Buffer<int64_t>> total{"total", 2};
    Output<Buffer<double>> scaled{"scaled", 2};
    Output<Buffer<>> pair{"pair", {UInt(8), Int(32)}, 2};

    void generate() {
        Expr value = input(x, y);
        Expr sum = cast<int64_t>(value) + select(flag, cast<int64_t>(1), cast<int64_t>(0));
        for (Expr s : {Expr(i8), Expr(i16), Expr(i32), Expr(i64), Expr(u8), Expr(u16), Expr(u32), Expr(u64)}) {
            sum = sum + cast<int64_t>(s);
        }
        total(x, y) = sum;
        scaled(x, y) = cast<double>(value) * cast<double>(f32) + f64;
        pair(x, y) = Tuple(cast<uint8_t>(value + u8), cast<int32_t>(value) + x + 1000 * y);
    }

private:
    Var x{"x"}, y{"y"};
};

} // namespace

HALIDE_REGISTER_GENERATOR(KernelInterface, kernel_interface)
