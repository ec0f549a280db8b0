// See Passes.h. The prologue every entry point starts with:
//
//   assert type and dimensions of each buffer argument      (-3, -43)
//   let b.host, b.min.d, b.extent.d, b.stride.d = fields of b.buffer
//     (or the constant a constraint requires, so the code can assume it)
//   assert the constraints of Dimension::set_min/extent/stride (-8);
//     by default the innermost stride is 1, as upstream
//   let g.min.d, ... = the regions of compute_root Funcs (from the body)
//   assert each input covers the region the pipeline reads  (-4)
//   assert scalar parameters lie in their ranges            (-9, -10)
//   body
//
// Unless the target has no_bounds_query, all of that is the else branch of
// `if (any buffer argument is a bounds query)`, whose then branch answers
// the query (ABI.md 9) and returns without checking or computing anything.
//
// Types are compared on code and bits only (the low 16 bits of the type
// word), so buffers made by Halide 14 (lanes = 1) and by newer tools
// (reserved = 0) are both accepted.
#include <algorithm>
#include <climits>
#include <map>
#include <sstream>

#include "Halide/Error.h"
#include "Halide/IRMutator.h"
#include "Halide/IRPrinter.h"
#include "Halide/Simplify.h"
#include "analysis/Interval.h"
#include "ir/Substitute.h"
#include "lower/Passes.h"

namespace Halide {
namespace Internal {
namespace {

Expr user_context() {
    return Variable::make(Handle(), "__user_context");
}

Expr error_call(const std::string &helper, std::vector<Expr> args) {
    args.insert(args.begin(), user_context());
    return Call::make(Int(32), helper, std::move(args), Call::Extern);
}

Expr intrinsic(Type t, const std::string &name, std::vector<Expr> args) {
    return Call::make(t, name, std::move(args), Call::Intrinsic);
}

uint32_t type_word(Type t) {
    return (uint32_t)t.code() | ((uint32_t)t.bits() << 8);
}

Expr uint32_const(uint32_t v) {
    return UIntImm::make(UInt(32), v);
}

// What the user requires of each buffer argument's dimensions, by name.
using Constraints = std::map<std::string, std::vector<DimensionConstraint>>;

Expr constraint_of(const Constraints &c, const std::string &buffer, int d, const std::string &field) {
    auto it = c.find(buffer);
    if (it == c.end() || d >= (int)it->second.size()) {
        return Expr();
    }
    const DimensionConstraint &k = it->second[(size_t)d];
    return field == "min" ? k.min : field == "extent" ? k.extent : k.stride;
}

// The fields of buffer arguments constrained to constants (name.min.d,
// name.extent.d, name.stride.d, and name.max.d when min and extent both
// are), by the constants.
std::map<std::string, Expr> constant_fields(const std::vector<LoweredArgument> &args, const Constraints &constraints) {
    std::map<std::string, Expr> fields;
    for (const LoweredArgument &a : args) {
        if (!a.is_buffer()) {
            continue;
        }
        for (int d = 0; d < a.dimensions; d++) {
            std::string suffix = "." + std::to_string(d);
            for (const char *field : {"min", "extent", "stride"}) {
                Expr c = constraint_of(constraints, a.name, d, field);
                if (c.defined() && c.as<IntImm>()) {
                    fields[a.name + "." + field + suffix] = c;
                }
            }
            const IntImm *mn = constraint_of(constraints, a.name, d, "min").as<IntImm>();
            const IntImm *ex = mn ? constraint_of(constraints, a.name, d, "extent").as<IntImm>() : nullptr;
            if (ex) {
                fields[a.name + ".max" + suffix] = int32_const(mn->value + ex->value - 1);
            }
        }
    }
    return fields;
}

// Binds name.host, name.min.d, name.extent.d, name.stride.d and name.max.d
// of every buffer argument around s; a field constrained to a constant is
// bound to that constant (checked, or in a bounds query answered, to hold;
// `fixed` is constant_fields()).
Stmt bind_fields(const std::vector<LoweredArgument> &args, const std::map<std::string, Expr> &fixed, Stmt s) {
    for (auto it = args.rbegin(); it != args.rend(); ++it) {
        const LoweredArgument &a = *it;
        if (!a.is_buffer()) {
            continue;
        }
        Expr buf = Variable::make(Handle(), a.name + ".buffer");
        for (int d = a.dimensions; d-- > 0;) {
            std::string suffix = "." + std::to_string(d);
            s = LetStmt::make(
                a.name + ".max" + suffix,
                Sub::make(Add::make(buffer_field(a.name, "min", d), buffer_field(a.name, "extent", d)), int32_const(1)),
                s);
            for (const char *field : {"stride", "extent", "min"}) {
                std::string name = a.name + "." + field + suffix;
                auto constant = fixed.find(name);
                Expr value = constant != fixed.end()
                                 ? constant->second
                                 : intrinsic(Int(32), std::string("buffer_get_") + field, {buf, int32_const(d)});
                s = LetStmt::make(name, value, s);
            }
        }
        s = LetStmt::make(a.name + ".host", intrinsic(Handle(), "buffer_get_host", {buf}), s);
    }
    return s;
}

// A Func defined with a Tuple writes one buffer per value (f.0, f.1, ...):
// its loops run over f.min.d / f.extent.d, which are those of f.0, and the
// other buffers must have the same region.
Stmt alias_tuple_outputs(const std::vector<FunctionPtr> &outputs, Stmt s) {
    for (const FunctionPtr &f : outputs) {
        if (f->values.size() < 2) {
            continue;
        }
        std::vector<Stmt> checks;
        for (size_t v = 1; v < f->values.size(); v++) {
            std::string other = f->name + "." + std::to_string(v);
            for (int d = 0; d < (int)f->args.size(); d++) {
                for (const char *field : {"min", "extent"}) {
                    Expr mine = buffer_field(other, field, d), first = buffer_field(f->name + ".0", field, d);
                    std::string what = other + "." + field + "." + std::to_string(d);
                    std::string want = f->name + ".0." + field + "." + std::to_string(d);
                    checks.push_back(
                        AssertStmt::make(EQ::make(mine, first),
                                         error_call("halide_error_constraint_violated",
                                                    {StringImm::make(what), mine, StringImm::make(want), first})));
                }
            }
        }
        s = Block::make(Block::make(checks), s);
        for (int d = (int)f->args.size(); d-- > 0;) {
            for (const char *field : {"max", "stride", "extent", "min"}) {
                s = LetStmt::make(f->name + "." + field + "." + std::to_string(d),
                                  buffer_field(f->name + ".0", field, d), s);
            }
        }
    }
    return s;
}

// The Func an output buffer argument belongs to (f for f, or f.i).
const FunctionContents *output_func(const std::vector<FunctionPtr> &outputs, const std::string &buffer) {
    for (const FunctionPtr &o : outputs) {
        if (o->name == buffer) {
            return o.get();
        }
        for (size_t v = 0; o->values.size() > 1 && v < o->values.size(); v++) {
            if (buffer == o->name + "." + std::to_string(v)) {
                return o.get();
            }
        }
    }
    return nullptr;
}

// The region of each output that the other outputs read (Pipeline({f, g})
// with g reading f). An output's own updates are left out: they may read it
// where they skip the point (f(x, k * x) = f(x, k * x) * 2).
std::map<std::string, Box> outputs_read_by_others(const Stmt &s, const std::vector<FunctionPtr> &outputs,
                                                  const Scope &symbolic) {
    class DropProducer : public IRMutator {
    public:
        explicit DropProducer(const std::string &name) : name_(name) {}
        using IRMutator::visit;
        Stmt visit(const ProducerConsumer *op) override {
            if (op->is_producer && op->name == name_) {
                return Evaluate::make(0);
            }
            return IRMutator::visit(op);
        }

    private:
        const std::string &name_;
    };
    std::map<std::string, Box> result;
    if (outputs.size() < 2) {
        return result; // no other output to read it
    }
    for (const FunctionPtr &f : outputs) {
        auto boxes = boxes_required(DropProducer(f->name).mutate(s), symbolic);
        auto it = boxes.find(f->name);
        if (it != boxes.end()) {
            result[f->name] = it->second;
        }
    }
    return result;
}

Expr is_query(const std::string &buffer) {
    return intrinsic(Bool(), "buffer_is_bounds_query", {Variable::make(Handle(), buffer + ".buffer")});
}

// The region an output really gets for a requested min/extent: exactly its
// bound(), or widened to one split factor (shift-inwards splits) or rounded
// up to a multiple of it (RoundUp, and an update's Auto), as its schedule needs.
void output_region(const FunctionContents &f, int d, Expr &min, Expr &extent) {
    const std::string &arg = f.args[(size_t)d];
    auto b = f.explicit_bounds.find(arg);
    if (b != f.explicit_bounds.end()) {
        min = b->second.first;
        extent = b->second.second;
        return;
    }
    auto e = f.extent_bounds.find(arg);
    if (e != f.extent_bounds.end()) {
        // bound_extent(): from the requested min; at least what was asked
        // for, so a caller allocating the answer can crop it to its request
        // (and the pipeline then reports a request wider than the bound).
        extent = Max::make(extent, e->second);
        return;
    }
    for (const SplitStep &step : f.splits) {
        const IntImm *factor = step.factor.as<IntImm>();
        if (step.kind != SplitStep::Split || step.old_var != arg || !factor) {
            continue;
        }
        Expr k = int32_const(factor->value);
        if (step.tail == TailKind::Auto || step.tail == TailKind::ShiftInwards ||
            step.tail == TailKind::ShiftInwardsAndBlend) {
            // (ShiftInwardsAndBlend shifts an output's pure definition
            // inwards, as ShiftInwards: ScheduleFunctions.cpp.)
            min = Add::make(min, Min::make(Sub::make(extent, k), int32_const(0)));
            extent = Max::make(extent, k);
        } else if (step.tail == TailKind::RoundUp || step.tail == TailKind::RoundUpAndBlend ||
                   step.tail == TailKind::PredicateLoads) {
            // (PredicateLoads' stores run on as RoundUp's, RoundUpAndBlend's
            // on an output's pure definition too: ScheduleFunctions.cpp.)
            extent = Mul::make(Div::make(Add::make(extent, Sub::make(k, int32_const(1))), k), k);
        }
    }
    // An update split of this dimension's pure Var with the Auto tail is
    // RoundUp upstream: its region is rounded up to a multiple of the factor
    // (our loops guard such a tail; given the larger buffer they cover it).
    for (const UpdateDefinition &u : f.updates) {
        if ((size_t)d >= u.pure_vars.size() || u.pure_vars[(size_t)d].empty()) {
            continue;
        }
        for (const SplitStep &step : u.splits) {
            const IntImm *factor = step.factor.as<IntImm>();
            if (step.kind == SplitStep::Split && step.old_var == u.pure_vars[(size_t)d] && factor &&
                (step.tail == TailKind::Auto || step.tail == TailKind::RoundUp)) {
                Expr k = int32_const(factor->value);
                extent = Mul::make(Div::make(Add::make(extent, Sub::make(k, int32_const(1))), k), k);
            }
        }
    }
}

// The answer to a bounds query (ABI.md 9): each query buffer gets the
// kernel's type and dimensions and, per dimension, the region the pipeline
// would read (inputs) or write (outputs), with dense strides. A min or
// extent the user constrained (Dimension::set_min/set_extent) is answered
// as its constraint, evaluated with every buffer field it names replaced by
// that buffer's required value; if that region does not cover the required
// one the query fails (-7). A constraint naming another buffer's answer can
// need a second query to settle: Pipeline::infer_input_bounds repeats it.
Stmt bounds_query_answers(const LoweredPipeline &p, const std::map<std::string, Box> &required,
                          const std::map<std::string, Box> &updated, const OpeningLets &opening,
                          const std::vector<FunctionPtr> &outputs, const Constraints &constraints) {
    std::vector<std::pair<std::string, Expr>> lets;
    std::map<std::string, Expr> adjusted;
    for (const LoweredArgument &a : p.func.args) {
        if (a.kind != LoweredArgument::OutputBuffer) {
            continue;
        }
        const FunctionContents *f = output_func(outputs, a.name);
        internal_assert(f) << "no Func for output " << a.name;
        for (int d = 0; d < a.dimensions; d++) {
            Expr min = buffer_field(a.name, "min", d), extent = buffer_field(a.name, "extent", d);
            output_region(*f, d, min, extent);
            std::string q = a.name + ".query.", suffix = "." + std::to_string(d);
            lets.emplace_back(q + "min" + suffix, min);
            lets.emplace_back(q + "extent" + suffix, extent);
            Expr qmin = var_int32(q + "min" + suffix), qext = var_int32(q + "extent" + suffix);
            // The Func's own names too (a Tuple's loops use f.*, from its first buffer).
            for (const std::string &n : {a.name, f->name}) {
                if (!adjusted.count(n + ".min" + suffix)) {
                    adjusted[n + ".min" + suffix] = qmin;
                    adjusted[n + ".extent" + suffix] = qext;
                    adjusted[n + ".max" + suffix] = Sub::make(Add::make(qmin, qext), int32_const(1));
                }
            }
        }
    }
    // The required region of every buffer, bound to name.required.min.d and
    // name.required.extent.d, and what its fields mean in a constraint.
    std::vector<std::pair<std::string, Expr>> required_lets;
    std::map<std::string, Expr> replace_with_required = adjusted;
    std::map<std::string, std::vector<Stmt>> extent_checks; // an input's required extents fit in int32
    for (const LoweredArgument &a : p.func.args) {
        if (!a.is_buffer()) {
            continue;
        }
        auto box = required.find(a.name);
        for (int d = 0; d < a.dimensions; d++) {
            std::string suffix = "." + std::to_string(d);
            Expr min, extent;
            if (a.kind == LoweredArgument::OutputBuffer) {
                min = adjusted.at(a.name + ".min" + suffix);
                extent = adjusted.at(a.name + ".extent" + suffix);
                // An output whose updates write outside the region asked for
                // (f(r) += 1 over a wider r) is answered with both, as
                // upstream: realize(sizes) allocates that and returns a crop.
                auto written = updated.find(output_func(outputs, a.name)->name);
                if (written != updated.end() && d < (int)written->second.size() &&
                    written->second[(size_t)d].is_bounded()) {
                    Expr max = Sub::make(Add::make(min, extent), int32_const(1));
                    Expr wmin = substitute(adjusted, written->second[(size_t)d].min);
                    Expr wmax = substitute(adjusted, written->second[(size_t)d].max);
                    min = Min::make(min, wmin);
                    extent = Add::make(Sub::make(Max::make(max, wmax), min), int32_const(1));
                }
            } else if (box != required.end()) {
                min = substitute(adjusted, box->second[(size_t)d].min);
                Expr max = substitute(adjusted, box->second[(size_t)d].max);
                extent = Add::make(Sub::make(max, min), int32_const(1));
                // The extent in 64 bits: a region of 2^31 elements or more
                // has no int32 extent (it would wrap, to 0 for the whole range).
                Expr wide =
                    Add::make(Sub::make(Cast::make(Int(64), max), Cast::make(Int(64), min)), make_const(Int(64), 1));
                Expr limit = make_const(Int(64), INT32_MAX);
                extent_checks[a.name].push_back(
                    AssertStmt::make(LE::make(wide, limit), error_call("halide_error_buffer_extents_too_large",
                                                                       {StringImm::make(a.name), wide, limit})));
            } else { // only its fields are used: keep what was asked for
                min = buffer_field(a.name, "min", d);
                extent = buffer_field(a.name, "extent", d);
            }
            std::string rmin = a.name + ".required.min" + suffix, rext = a.name + ".required.extent" + suffix;
            required_lets.emplace_back(rmin, min);
            required_lets.emplace_back(rext, extent);
            replace_with_required[a.name + ".min" + suffix] = var_int32(rmin);
            replace_with_required[a.name + ".extent" + suffix] = var_int32(rext);
            replace_with_required[a.name + ".max" + suffix] =
                Sub::make(Add::make(var_int32(rmin), var_int32(rext)), int32_const(1));
        }
    }
    std::vector<Stmt> fills;
    for (const LoweredArgument &a : p.func.args) {
        if (!a.is_buffer()) {
            continue;
        }
        std::vector<Expr> args = {Variable::make(Handle(), a.name + ".buffer"), uint32_const(type_word(a.type)),
                                  int32_const(a.dimensions)};
        std::vector<Stmt> checks = extent_checks[a.name];
        for (int d = 0; d < a.dimensions; d++) {
            std::string suffix = "." + std::to_string(d);
            Expr rmin = var_int32(a.name + ".required.min" + suffix);
            Expr rext = var_int32(a.name + ".required.extent" + suffix);
            Expr min = rmin, extent = rext;
            Expr cmin = constraint_of(constraints, a.name, d, "min");
            Expr cext = constraint_of(constraints, a.name, d, "extent");
            if (cmin.defined()) {
                min = substitute(replace_with_required, cmin);
            }
            if (cext.defined()) {
                extent = substitute(replace_with_required, cext);
            }
            if (cmin.defined() || cext.defined()) {
                std::string pmin = a.name + ".proposed.min" + suffix, pext = a.name + ".proposed.extent" + suffix;
                Expr covers = And::make(LE::make(var_int32(pmin), rmin),
                                        GE::make(Add::make(var_int32(pmin), var_int32(pext)), Add::make(rmin, rext)));
                Stmt check =
                    AssertStmt::make(covers, error_call("halide_error_constraints_make_required_region_smaller",
                                                        {StringImm::make(a.name), int32_const(d), var_int32(pmin),
                                                         var_int32(pext), rmin, rext}));
                checks.push_back(LetStmt::make(pmin, min, LetStmt::make(pext, extent, check)));
            }
            args.push_back(min);
            args.push_back(extent);
        }
        Stmt fill = Evaluate::make(intrinsic(Int(32), "buffer_fill_query", args));
        fills.push_back(IfThenElse::make(is_query(a.name), Block::make(Block::make(checks), fill)));
    }
    Stmt s = Block::make(fills);
    for (auto it = required_lets.rbegin(); it != required_lets.rend(); ++it) {
        s = LetStmt::make(it->first, it->second, s);
    }
    // The regions the boxes are written in, over the queried output regions.
    s = wrap_in_lets(opening, s, [&](const Expr &v) { return substitute(adjusted, v); });
    for (auto it = lets.rbegin(); it != lets.rend(); ++it) {
        s = LetStmt::make(it->first, it->second, s);
    }
    return s;
}

} // namespace

Stmt add_image_checks(const Stmt &body, const LoweredPipeline &p, const std::vector<FunctionPtr> &outputs,
                      bool bounds_query) {
    // The lets that open the body (the regions of compute_root Funcs) stay
    // symbolic in the inputs' regions, and the region checks go inside them:
    // substituted, each region would nest its consumers' regions.
    // A traced pipeline opens with its begin_pipeline event (AddTracing.cpp),
    // which must not run for a bounds query: the lets stop there.
    OpeningLets opening = opening_lets(body, [](const Expr &value) {
        const Call *c = value.as<Call>();
        return c && c->call_type == Call::Intrinsic && c->name == "trace_event";
    });
    Stmt s = opening.inside;
    std::vector<Stmt> early_checks, constraint_checks, region_checks;
    Constraints constraints;
    for (size_t i = 0; i < p.func.args.size(); i++) {
        const LoweredArgument &a = p.func.args[i];
        if (a.kind == LoweredArgument::InputBuffer && i < p.sources.size() && p.sources[i].buffer) {
            constraints[a.name] = p.sources[i].buffer->constraints;
        } else if (a.kind == LoweredArgument::OutputBuffer) {
            const FunctionContents *f = output_func(outputs, a.name);
            constraints[a.name] = default_constraints(a.dimensions);
            for (const auto &b : f ? f->output_buffers : std::vector<InputBufferPtr>{}) {
                if (b->name == a.name) {
                    constraints[a.name] = b->constraints;
                }
            }
        }
    }

    // The regions read. With outputs or inputs constrained to constants,
    // bounded a second time in the body with each constant in place of the
    // field it fixes (the checks below run after the constraints') and
    // simplified: knowing the loops' ranges, the simplifier turns a tile's
    // region clamped to a constrained output back into the loop variable
    // plus constants, so interval arithmetic keeps its min and max 15 apart
    // instead of bounding each alone (a 16-wide tile vectorized by 8 read 8
    // before its input: the matmul benchmark's packed B). Both are sound;
    // where each is tighter is kept.
    auto required = boxes_required(s, opening.symbolic);
    const std::map<std::string, Expr> fixed = constant_fields(p.func.args, constraints);
    if (!fixed.empty()) {
        auto refined = boxes_required(simplify(substitute(fixed, s)), opening.symbolic);
        for (auto &[name, box] : required) {
            auto it = refined.find(name);
            if (it != refined.end() && it->second.size() == box.size()) {
                box = box_intersection(box, it->second);
            }
        }
    }

    std::map<std::string, Box> read_by_others = outputs_read_by_others(s, outputs, opening.symbolic);
    // A buffer read only under a condition (a specialization's) needs its
    // region only where that holds: elsewhere its own fields pass the check
    // and answer a bounds query.
    for (auto *boxes : {&required, &read_by_others}) {
        for (auto &[name, box] : *boxes) {
            if (!box.maybe_unused()) {
                continue;
            }
            for (size_t d = 0; d < box.size(); d++) {
                Expr min = buffer_field(name, "min", (int)d);
                Expr max = Sub::make(Add::make(min, buffer_field(name, "extent", (int)d)), int32_const(1));
                if (box[d].min.defined()) {
                    box[d].min = Select::make(box.used, box[d].min, min);
                }
                if (box[d].max.defined()) {
                    box[d].max = Select::make(box.used, box[d].max, max);
                }
            }
            box.used = Expr();
        }
    }
    for (const LoweredArgument &a : p.func.args) {
        if (!a.is_buffer()) {
            continue;
        }
        const bool input = a.kind == LoweredArgument::InputBuffer;
        const std::string label = std::string(input ? "Input" : "Output") + " buffer " + a.name;
        Expr buf = Variable::make(Handle(), a.name + ".buffer");
        Expr given_type = Mod::make(intrinsic(UInt(32), "buffer_get_type", {buf}), uint32_const(65536));
        early_checks.push_back(
            AssertStmt::make(EQ::make(given_type, uint32_const(type_word(a.type))),
                             error_call("halide_error_bad_type",
                                        {StringImm::make(label), given_type, uint32_const(type_word(a.type))})));
        Expr dims = intrinsic(Int(32), "buffer_get_dimensions", {buf});
        early_checks.push_back(AssertStmt::make(
            EQ::make(dims, int32_const(a.dimensions)),
            error_call("halide_error_bad_dimensions", {StringImm::make(label), dims, int32_const(a.dimensions)})));
        for (int d = 0; d < a.dimensions; d++) {
            for (const char *field : {"min", "extent", "stride"}) {
                Expr want = constraint_of(constraints, a.name, d, field);
                if (!want.defined()) {
                    continue;
                }
                Expr have = intrinsic(Int(32), std::string("buffer_get_") + field, {buf, int32_const(d)});
                std::ostringstream text;
                text << want;
                constraint_checks.push_back(AssertStmt::make(
                    EQ::make(have, want), error_call("halide_error_constraint_violated",
                                                     {StringImm::make(a.name + "." + field + "." + std::to_string(d)),
                                                      have, StringImm::make(text.str()), want})));
            }
        }

        // An input's region read must be in its buffer; so must an output's
        // read by the other outputs, as it is computed into its buffer only.
        const FunctionContents *out = input ? nullptr : output_func(outputs, a.name);
        const std::map<std::string, Box> &reads = input ? required : read_by_others;
        auto it = reads.find(input ? a.name : out ? out->name : std::string());
        if (it != reads.end()) { // (an input only its fields are used of is never read)
            for (int d = 0; d < a.dimensions && d < (int)it->second.size(); d++) {
                const Interval &r = it->second[d];
                user_assert(r.is_bounded()) << "Can't infer the region of " << label << " the pipeline reads: "
                                            << "dimension " << d << " is unbounded. Clamp the coordinates.";
                Expr min_valid = buffer_field(a.name, "min", d), extent = buffer_field(a.name, "extent", d);
                Expr max_valid = Sub::make(Add::make(min_valid, extent), int32_const(1));
                // The last element in 64 bits: a buffer at INT32_MIN with
                // extent 0 (a region of 2^32 elements wrapped) has none, where
                // its int32 max wraps around to INT32_MAX.
                auto i64 = [](const Expr &e) { return Cast::make(Int(64), e); };
                Expr last = Sub::make(Add::make(i64(min_valid), i64(extent)), make_const(Int(64), 1));
                Expr ok = And::make(LE::make(min_valid, r.min), LE::make(i64(r.max), last));
                region_checks.push_back(AssertStmt::make(
                    ok, error_call("halide_error_access_out_of_bounds",
                                   {StringImm::make(label), int32_const(d), r.min, r.max, min_valid, max_valid})));
            }
        }
    }

    // set_host_alignment(): the buffer's host pointer is a multiple of it.
    for (size_t i = 0; i < p.sources.size() && i < p.func.args.size(); i++) {
        const std::string &arg_name = p.func.args[i].name;
        InputBufferPtr b = p.sources[i].buffer;
        if (p.func.args[i].kind == LoweredArgument::OutputBuffer) {
            const FunctionContents *f = output_func(outputs, arg_name);
            for (const auto &o : f ? f->output_buffers : std::vector<InputBufferPtr>{}) {
                if (o->name == arg_name) {
                    b = o;
                }
            }
        }
        if (!b || b->host_alignment <= 1) {
            continue;
        }
        Expr host = Cast::make(
            UInt(64), intrinsic(Handle(), "buffer_get_host", {Variable::make(Handle(), arg_name + ".buffer")}));
        Expr aligned = EQ::make(Mod::make(host, UIntImm::make(UInt(64), (uint64_t)b->host_alignment)),
                                UIntImm::make(UInt(64), (uint64_t)0));
        constraint_checks.push_back(
            AssertStmt::make(aligned, error_call("halide_error_unaligned_host_ptr",
                                                 {StringImm::make(arg_name), int32_const(b->host_alignment)})));
    }

    for (size_t i = 0; i < p.sources.size(); i++) {
        const ArgumentSource &src = p.sources[i];
        if (!src.param || !(src.param->min_value.defined() || src.param->max_value.defined())) {
            continue;
        }
        const ParamContents &param = *src.param;
        const std::string &arg_name = p.func.args[i].name;
        Type wide = param.type.is_float() ? Float(64) : (param.type.is_uint() ? UInt(64) : Int(64));
        std::string suffix = param.type.is_float() ? "_f64" : (param.type.is_uint() ? "_u64" : "_i64");
        Expr value = Cast::make(wide, Variable::make(param.type, arg_name));
        auto check = [&](const Expr &limit, bool is_min) {
            if (!limit.defined()) {
                return;
            }
            Expr bound = limit.type() == wide ? limit : Cast::make(wide, limit);
            Expr ok = is_min ? GE::make(value, bound) : LE::make(value, bound);
            std::string helper = std::string("halide_error_param_too_") + (is_min ? "small" : "large") + suffix;
            region_checks.push_back(
                AssertStmt::make(ok, error_call(helper, {StringImm::make(arg_name), value, bound})));
        };
        check(param.min_value, true);
        check(param.max_value, false);
    }

    // The constraints first: the region checks may assume them.
    s = Block::make({Block::make(constraint_checks), Block::make(region_checks), s});
    s = wrap_in_lets(opening, s);
    s = bind_fields(p.func.args, fixed, alias_tuple_outputs(outputs, s));
    Stmt checked = Block::make(Block::make(early_checks), s);
    // Before anything reads a buffer argument: it must be there at all.
    std::vector<Stmt> null_checks;
    for (const LoweredArgument &a : p.func.args) {
        if (a.is_buffer()) {
            null_checks.push_back(
                AssertStmt::make(Cast::make(Bool(), Variable::make(Handle(), a.name + ".buffer")),
                                 error_call("halide_error_buffer_argument_is_null", {StringImm::make(a.name)})));
        }
    }
    if (!bounds_query) {
        // Without bounds queries a buffer without memory is an error, not a question.
        std::vector<Stmt> host_checks;
        for (const LoweredArgument &a : p.func.args) {
            if (a.is_buffer()) {
                Expr host = intrinsic(Handle(), "buffer_get_host", {Variable::make(Handle(), a.name + ".buffer")});
                host_checks.push_back(AssertStmt::make(
                    Cast::make(Bool(), host), error_call("halide_error_host_is_null", {StringImm::make(a.name)})));
            }
        }
        return Block::make({Block::make(null_checks), Block::make(host_checks), checked});
    }
    Expr any_query;
    for (const LoweredArgument &a : p.func.args) {
        if (a.is_buffer()) {
            Expr q = is_query(a.name);
            any_query = any_query.defined() ? Or::make(any_query, q) : q;
        }
    }
    if (!any_query.defined()) {
        return Block::make(Block::make(null_checks), checked);
    }
    // The points the outputs with update definitions write.
    std::map<std::string, Box> updated;
    if (std::any_of(outputs.begin(), outputs.end(), [](const FunctionPtr &f) { return !f->updates.empty(); })) {
        auto touched = boxes_touched(opening.inside, opening.symbolic);
        for (const FunctionPtr &f : outputs) {
            auto it = touched.find(f->name);
            if (!f->updates.empty() && it != touched.end()) {
                updated[f->name] = it->second;
            }
        }
    }
    Stmt answers =
        bind_fields(p.func.args, fixed, bounds_query_answers(p, required, updated, opening, outputs, constraints));
    return Block::make(Block::make(null_checks), IfThenElse::make(any_query, answers, checked));
}

} // namespace Internal
} // namespace Halide
