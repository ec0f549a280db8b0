// While a StrictFloatScope(true) lives (lowering for a target with the
// strict_float feature), the simplifier applies no float rewrite that could
// change a result (x / c stays a division), as if every float operation
// were inside strict_float(); on this thread only.
#ifndef HALIDE_SIMPLIFY_STRICT_FLOAT_SCOPE_H
#define HALIDE_SIMPLIFY_STRICT_FLOAT_SCOPE_H

namespace Halide {
namespace Internal {

class StrictFloatScope {
public:
    explicit StrictFloatScope(bool strict);
    ~StrictFloatScope();
    StrictFloatScope(const StrictFloatScope &) = delete;
    StrictFloatScope &operator=(const StrictFloatScope &) = delete;

private:
    bool strict_;
};

} // namespace Internal
} // namespace Halide

#endif
