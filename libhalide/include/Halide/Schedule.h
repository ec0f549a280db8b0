// Scheduling choices shared by the front end and lowering.
#ifndef HALIDE_SCHEDULE_H
#define HALIDE_SCHEDULE_H

#include <memory>
#include <string>

namespace Halide {

class Func;
class VarOrRVar;

// Whether a loop may be split into prologue, steady state and epilogue
// around the iterations where its likely() branches are taken (see
// Func::partition). Auto: where the compiler finds such a range. Always:
// as Auto, and it is an error when there is none. Never: the loop stays one.
enum class Partition { Auto, Never, Always };

// How compute_with lines up a fused loop of the child stage with its
// parent's when their ranges differ (values as upstream's):
// - AlignStart: the child's first iteration runs with the parent's first.
// - AlignEnd: the child's last iteration runs with the parent's last.
// - NoAlign: each iteration runs at its own coordinate; the fused loop
//   covers both ranges.
// - Auto: NoAlign.
enum class LoopAlignStrategy { AlignStart, AlignEnd, NoAlign, Auto };

namespace Internal {
// What a LoopLevel names; shared by its copies, so set() changes them all.
struct LoopLevelContents {
    std::string func_name;
    std::string var_name;
    bool is_rvar = false;
    int stage_index = -1; // -1: every stage of func_name that has the loop
    bool locked = false;
};
} // namespace Internal

// A place in a loop nest where a Func is computed or stored: the root (outside
// every loop), inlined (no place of its own), or the loop over `var` of Func
// `f` (of stage `stage_index` only; by default, of each stage that has it).
// A LoopLevel is a shared, mutable handle until it is locked: copies refer to
// the same level, and set() changes every copy, including the ones schedules
// were given (f.compute_at(level) follows a later level.set(...)), as
// generators use it. Lowering locks the levels its schedules use; the
// accessors need a locked level.
class LoopLevel {
public:
    // Undefined: it must be set() before the pipeline is compiled.
    LoopLevel();
    LoopLevel(const Func &f, const VarOrRVar &v, int stage_index = -1);

    static LoopLevel inlined();
    static LoopLevel root();

    bool defined() const;
    // Makes this level (and every copy of it) name what `other` names now.
    // An error on a locked level.
    void set(const LoopLevel &other);
    LoopLevel &lock();
    bool locked() const;

    // These need a locked level.
    std::string func() const;
    VarOrRVar var() const;
    int stage_index() const;
    bool is_inlined() const;
    bool is_root() const;
    // "f.x" (or "f.s1.x" with a stage index), ".__root", ".__inlined".
    std::string to_string() const;
    bool match(const std::string &loop) const;
    bool match(const LoopLevel &other) const;
    bool operator==(const LoopLevel &other) const;
    bool operator!=(const LoopLevel &other) const { return !(*this == other); }

    // The shared contents (lowering reads them).
    const std::shared_ptr<Internal::LoopLevelContents> &contents() const { return contents_; }

private:
    explicit LoopLevel(std::shared_ptr<Internal::LoopLevelContents> c) : contents_(std::move(c)) {}
    void check_locked() const;
    std::shared_ptr<Internal::LoopLevelContents> contents_;
};

} // namespace Halide

#endif
