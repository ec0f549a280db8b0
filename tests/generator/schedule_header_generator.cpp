// A generator whose .schedule.h (emit kind `schedule`, written when an
// autoscheduler is named) schedule_header_test.cpp includes.
#include "Halide.h"
#include "schedule_header_algorithm.h"

using namespace Halide;

namespace {

class ScheduleHeader : public Generator<ScheduleHeader> {
public:
    Input<Buffer<int32_t>> in{"in", 2};
    Output<Buffer<int32_t>> out{"out", 2};

    void generate() { out(x, y) = schedule_header_algorithm(in, x, y)(x, y); }

private:
    Var x{"x"}, y{"y"};
};

} // namespace

HALIDE_REGISTER_GENERATOR(ScheduleHeader, schedule_header)
