// Scheduling choices shared by the front end and lowering.
#ifndef HALIDE_SCHEDULE_H
#define HALIDE_SCHEDULE_H

namespace Halide {

// Whether a loop may be split into prologue, steady state and epilogue
// around the iterations where its likely() branches are taken (see
// Func::partition). Auto: where the compiler finds such a range. Always:
// as Auto, and it is an error when there is none. Never: the loop stays one.
enum class Partition { Auto, Never, Always };

} // namespace Halide

#endif
