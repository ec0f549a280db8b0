// See Passes.h. The prologue every entry point starts with:
//
//   assert type and dimensions of each buffer argument      (-3, -43)
//   assert the innermost stride is 1, as upstream does       (-8)
//   let b.host, b.min.d, b.extent.d, b.stride.d = fields of b.buffer
//   assert each input covers the region the pipeline reads  (-4)
//   assert scalar parameters lie in their ranges            (-9, -10)
//   body
//
// Types are compared on code and bits only (the low 16 bits of the type
// word), so buffers made by Halide 14 (lanes = 1) and by newer tools
// (reserved = 0) are both accepted.
#include "Halide/Error.h"
#include "analysis/Interval.h"
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
    return (uint32_t)t.code | ((uint32_t)t.bits << 8);
}

Expr uint32_const(uint32_t v) {
    return UIntImm::make(UInt(32), v);
}

} // namespace

Stmt add_image_checks(const Stmt &body, const LoweredPipeline &p) {
    auto required = boxes_required(body);
    std::vector<Stmt> early_checks, region_checks;
    Stmt s = body;

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
        if (a.dimensions > 0) {
            // As upstream does by default: the innermost dimension is dense,
            // which is what makes vector loads and stores possible.
            Expr stride0 = intrinsic(Int(32), "buffer_get_stride", {buf, int32_const(0)});
            early_checks.push_back(AssertStmt::make(
                EQ::make(stride0, int32_const(1)),
                error_call("halide_error_constraint_violated",
                           {StringImm::make(a.name + ".stride.0"), stride0, StringImm::make("1"), int32_const(1)})));
        }

        if (input) {
            auto it = required.find(a.name);
            internal_assert(it != required.end());
            for (int d = 0; d < a.dimensions; d++) {
                const Interval &r = it->second[d];
                user_assert(r.is_bounded()) << "Can't infer the region of " << label << " the pipeline reads: "
                                            << "dimension " << d << " is unbounded. Clamp the coordinates.";
                Expr min_valid = buffer_field(a.name, "min", d);
                Expr max_valid = Sub::make(Add::make(min_valid, buffer_field(a.name, "extent", d)), int32_const(1));
                Expr ok = And::make(LE::make(min_valid, r.min), LE::make(r.max, max_valid));
                region_checks.push_back(AssertStmt::make(
                    ok, error_call("halide_error_access_out_of_bounds",
                                   {StringImm::make(label), int32_const(d), r.min, r.max, min_valid, max_valid})));
            }
        }
    }

    for (const ArgumentSource &src : p.sources) {
        if (!src.param || !(src.param->min_value.defined() || src.param->max_value.defined())) {
            continue;
        }
        const ParamContents &param = *src.param;
        Type wide = param.type.is_float() ? Float(64) : (param.type.is_uint() ? UInt(64) : Int(64));
        std::string suffix = param.type.is_float() ? "_f64" : (param.type.is_uint() ? "_u64" : "_i64");
        Expr value = Cast::make(wide, Variable::make(param.type, param.name));
        auto check = [&](const Expr &limit, bool is_min) {
            if (!limit.defined()) {
                return;
            }
            Expr bound = limit.type() == wide ? limit : Cast::make(wide, limit);
            Expr ok = is_min ? GE::make(value, bound) : LE::make(value, bound);
            std::string helper = std::string("halide_error_param_too_") + (is_min ? "small" : "large") + suffix;
            region_checks.push_back(
                AssertStmt::make(ok, error_call(helper, {StringImm::make(param.name), value, bound})));
        };
        check(param.min_value, true);
        check(param.max_value, false);
    }

    s = Block::make(Block::make(region_checks), s);

    // Bind the fields, innermost last.
    for (auto it = p.func.args.rbegin(); it != p.func.args.rend(); ++it) {
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
                Expr value = intrinsic(Int(32), std::string("buffer_get_") + field, {buf, int32_const(d)});
                if (d == 0 && std::string(field) == "stride") {
                    value = int32_const(1); // checked above
                }
                s = LetStmt::make(a.name + "." + field + suffix, value, s);
            }
        }
        s = LetStmt::make(a.name + ".host", intrinsic(Handle(), "buffer_get_host", {buf}), s);
    }
    return Block::make(Block::make(early_checks), s);
}

} // namespace Internal
} // namespace Halide
