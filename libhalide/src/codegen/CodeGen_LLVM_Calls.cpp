// Calls: extern C functions (math functions that LLVM has intrinsics for
// become instructions; vector calls of other functions are scalarized, one
// call per lane) and the intrinsics codegen implements directly: likely and
// clamp promises, print and print_when, bitwise operations, shifts, abs,
// bit counts, strict_float and reinterpret. The buffer_* intrinsics are in
// CodeGen_LLVM_Buffers.cpp.
#include "codegen/CodeGen_LLVM_Internal.h"

#include <algorithm>
#include <map>

#include "Halide/Error.h"
#include "Halide/IR.h"
#include "Halide/IROperator.h"
#include "ir/IntrinsicNames.h"
#include "ir/StructLayout.h"

namespace Halide {
namespace Internal {

namespace {

// C math functions that LLVM has intrinsics for (so they become
// instructions, for vectors too). nearbyint rounds half to even, as
// roundeven does, in the default rounding mode code runs in.
llvm::Intrinsic::ID math_intrinsic(const std::string &name) {
    static const std::map<std::string, llvm::Intrinsic::ID> intrinsics = {
        {"sqrt", llvm::Intrinsic::sqrt},   {"floor", llvm::Intrinsic::floor},         {"ceil", llvm::Intrinsic::ceil},
        {"trunc", llvm::Intrinsic::trunc}, {"nearbyint", llvm::Intrinsic::roundeven}, {"fabs", llvm::Intrinsic::fabs},
    };
    std::string base = name;
    if (!base.empty() && base.back() == 'f') {
        base.pop_back(); // sqrtf is sqrt on float32
    }
    auto it = intrinsics.find(base);
    return it == intrinsics.end() ? llvm::Intrinsic::not_intrinsic : it->second;
}

} // namespace

llvm::Value *CodeGen_LLVM::call(const Call *op) {
    switch (op->call_type) {
    case Call::Halide:
    case Call::Image: internal_error << "Call to " << op->name << " reached codegen; lowering should have replaced it";
    case Call::Extern: return call_extern(op);
    case Call::Intrinsic: return call_intrinsic(op);
    case Call::ExternCPlusPlus: // Call::make records these as Extern / Intrinsic
    case Call::PureExtern:
    case Call::PureIntrinsic: break;
    }
    internal_error << "unknown call type";
}

llvm::Value *CodeGen_LLVM::call_extern(const Call *op) {
    bool float_math = is_floating(op->type) && !op->args.empty() && is_floating(op->args[0].type());
    if (float_math && op->args.size() == 1) {
        llvm::Intrinsic::ID id = math_intrinsic(op->name);
        if (id != llvm::Intrinsic::not_intrinsic) {
            return b_.CreateUnaryIntrinsic(id, codegen(op->args[0]));
        }
    }
    if (op->type.is_vector()) {
        return scalarized_call(op);
    }
    std::vector<llvm::Value *> args;
    for (const Expr &a : op->args) {
        args.push_back(codegen(a));
    }
    return scalar_call(op, args);
}

llvm::Value *CodeGen_LLVM::scalarized_call(const Call *op) {
    std::vector<llvm::Value *> vargs;
    for (const Expr &a : op->args) {
        vargs.push_back(codegen(a));
    }
    llvm::Value *result = llvm::PoisonValue::get(reg_type(op->type));
    for (int i = 0; i < op->type.lanes(); i++) {
        std::vector<llvm::Value *> lane_args;
        for (llvm::Value *v : vargs) {
            lane_args.push_back(v->getType()->isVectorTy() ? b_.CreateExtractElement(v, (uint64_t)i) : v);
        }
        result = b_.CreateInsertElement(result, scalar_call(op, lane_args), (uint64_t)i);
    }
    return result;
}

llvm::Value *CodeGen_LLVM::scalar_call(const Call *op, const std::vector<llvm::Value *> &args) {
    std::vector<llvm::Type *> arg_types;
    for (llvm::Value *a : args) {
        arg_types.push_back(a->getType());
    }
    llvm::Type *ret = op->type.bits() == 0 ? llvm::Type::getVoidTy(ctx_) : reg_type(op->type.element_of());
    llvm::FunctionCallee callee = runtime_fn(op->name, ret, arg_types);
    llvm::CallInst *c = b_.CreateCall(callee, args);
    // The C ABI extends integer arguments narrower than 32 bits.
    auto *f = llvm::dyn_cast<llvm::Function>(callee.getCallee());
    for (size_t i = 0; i < op->args.size(); i++) {
        Type t = op->args[i].type();
        if ((t.is_int() || t.is_uint()) && t.bits() < 32) {
            llvm::Attribute::AttrKind k = t.is_int() ? llvm::Attribute::SExt : llvm::Attribute::ZExt;
            c->addParamAttr((unsigned)i, k);
            if (f) {
                f->addParamAttr((unsigned)i, k);
            }
        }
    }
    if ((op->type.is_int() || op->type.is_uint()) && op->type.bits() > 0 && op->type.bits() < 32) {
        llvm::Attribute::AttrKind k = op->type.is_int() ? llvm::Attribute::SExt : llvm::Attribute::ZExt;
        c->addRetAttr(k);
        if (f) {
            f->addRetAttr(k);
        }
    }
    return c;
}

llvm::Value *CodeGen_LLVM::call_intrinsic(const Call *op) {
    const std::string &n = op->name;
    auto arg = [&](size_t i) {
        internal_assert(i < op->args.size()) << "intrinsic " << n << " needs argument " << i;
        return codegen(op->args[i]);
    };
    if (n == "make_semaphore") {
        return make_semaphore(op);
    }
    if (n == "likely" || n == "likely_if_innermost" || n == "promise_clamped" || n == "unsafe_promise_clamped" ||
        n == "memoize_expr") {
        return arg(0);
    }
    if (n == kPrefetchIntrinsic) {
        return prefetch(op);
    }
    if (n == "masked_load") {
        return masked_load(op);
    }
    if (n == "interleave_vectors") {
        return interleave_vectors(op);
    }
    if (n == "slice_vector") {
        return slice_vector(op);
    }
    if (n == "print") {
        llvm::Value *value = arg(0);
        emit_print(op->args, 0);
        return value;
    }
    if (n == "stringify") { // the values as text, separated by spaces (a char *)
        return format_text(op->args, 0, op->args.size(), " ", "");
    }
    if (n == "trace_event") {
        return emit_trace(op, nullptr);
    }
    if (n == "trace_value") {
        llvm::Value *value = arg(0);
        emit_trace(op, value);
        return value;
    }
    if (n == "require") { // require(condition, value, error args...): Require.h
        llvm::BasicBlock *ok = new_block("require_ok"), *fail = new_block("require_failed");
        branch_likely(arg(0), ok, fail);
        b_.SetInsertPoint(fail);
        llvm::Value *message = format_text(op->args, 1, op->args.size(), " ", "");
        llvm::FunctionCallee error = runtime_fn("halide_error_requirement_failed", i32_, {ptr_, ptr_, ptr_});
        emit_return(
            b_.CreateCall(error, {sym(kUserContext), b_.CreateGlobalStringPtr("false", "require_false"), message}));
        b_.SetInsertPoint(ok);
        return arg(1);
    }
    if (n == "print_when") {
        llvm::Value *cond = arg(0);
        llvm::Value *value = arg(1);
        llvm::BasicBlock *yes = new_block("print_when"), *done = new_block("print_when_done");
        b_.CreateCondBr(cond, yes, done);
        b_.SetInsertPoint(yes);
        emit_print(op->args, 1);
        b_.CreateBr(done);
        b_.SetInsertPoint(done);
        return value;
    }
    if (n.compare(0, 7, "buffer_") == 0) {
        return buffer_intrinsic(op);
    }
    if (n == "make_struct") {
        // The values laid out as a C struct of them (ir/StructLayout.h) in
        // the function's stack frame, padding zeroed; a pointer to them
        // (structs for externs, memoization keys, arrays of buffer pointers).
        std::vector<Type> types;
        for (const Expr &a : op->args) {
            types.push_back(a.type());
        }
        StructLayout layout = struct_layout(types);
        llvm::IRBuilder<> entry(&current_fn()->getEntryBlock(), current_fn()->getEntryBlock().begin());
        llvm::AllocaInst *p = entry.CreateAlloca(llvm::ArrayType::get(b_.getInt8Ty(), std::max<size_t>(layout.size, 1)),
                                                 nullptr, "struct");
        p->setAlignment(llvm::Align(std::max<size_t>(layout.alignment, 8)));
        b_.CreateMemSet(p, b_.getInt8(0), std::max<size_t>(layout.size, 1), llvm::Align(8));
        for (size_t i = 0; i < op->args.size(); i++) {
            llvm::Value *v = codegen(op->args[i]);
            if (types[i].is_bool()) {
                v = b_.CreateZExt(v, v->getType()->getWithNewBitWidth(8)); // a C bool is a byte
            }
            llvm::Value *at = b_.CreateConstInBoundsGEP1_64(b_.getInt8Ty(), p, layout.offsets[i]);
            b_.CreateAlignedStore(v, at, llvm::Align(1));
        }
        return p;
    }
    if (n == "bitwise_and" || n == "bitwise_or" || n == "bitwise_xor") {
        llvm::Value *a = arg(0);
        llvm::Value *b = arg(1);
        if (n == "bitwise_and") {
            return b_.CreateAnd(a, b);
        }
        return n == "bitwise_or" ? b_.CreateOr(a, b) : b_.CreateXor(a, b);
    }
    if (n == "bitwise_not") {
        return b_.CreateNot(arg(0));
    }
    if (n == "shift_left" || n == "shift_right") {
        return shift(n == "shift_left", op->args[0].type(), arg(0), op->args[1].type().is_int(), arg(1));
    }
    if (n == "abs") {
        Type t = op->args[0].type();
        llvm::Value *a = arg(0);
        llvm::Value *r;
        if (is_floating(t)) {
            r = b_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, a);
        } else if (t.is_int()) {
            r = b_.CreateBinaryIntrinsic(llvm::Intrinsic::abs, a, llvm::ConstantInt::getFalse(ctx_));
        } else {
            r = a;
        }
        return r;
    }
    if (n == "popcount") {
        return b_.CreateUnaryIntrinsic(llvm::Intrinsic::ctpop, arg(0));
    }
    if (n == "count_leading_zeros" || n == "count_trailing_zeros") {
        // Defined for zero (the bit width), as upstream's are.
        llvm::Intrinsic::ID id = n == "count_leading_zeros" ? llvm::Intrinsic::ctlz : llvm::Intrinsic::cttz;
        return b_.CreateBinaryIntrinsic(id, arg(0), llvm::ConstantInt::getFalse(ctx_));
    }
    if (n == "strict_float") {
        // The float operations inside are not contracted into FMAs.
        llvm::FastMathFlags saved = b_.getFastMathFlags();
        llvm::FastMathFlags strict = saved;
        strict.setAllowContract(false);
        b_.setFastMathFlags(strict);
        llvm::Value *v = arg(0);
        b_.setFastMathFlags(saved);
        return v;
    }
    if (n == "reinterpret") {
        Type from = op->args[0].type();
        llvm::Value *a = arg(0);
        if (from.is_handle() || op->type.is_handle()) {
            return cast(a, from, op->type);
        }
        return b_.CreateBitCast(a, reg_type(op->type));
    }
    internal_error << "Unknown intrinsic in codegen: " << n;
}

llvm::Value *CodeGen_LLVM::format_text(const std::vector<Expr> &args, size_t first, size_t last, const char *separator,
                                       const char *end) {
    std::string format;
    std::vector<llvm::Value *> values;
    for (size_t i = first; i < last; i++) {
        const Expr &a = args[i];
        llvm::Value *v = codegen(a);
        Type t = a.type();
        format += i > first ? separator : "";
        if (a.as<StringImm>()) {
            format += "%s";
        } else if (t.is_float()) {
            format += t.bits() == 64 ? "%e" : "%f"; // as upstream: doubles in scientific notation
            v = b_.CreateFPCast(v, llvm::Type::getDoubleTy(ctx_));
        } else if (t.is_handle()) {
            format += "%p";
        } else {
            format += t.is_int() ? "%lld" : "%llu";
            v = b_.CreateIntCast(v, i64_, t.is_int());
        }
        values.push_back(v);
    }
    format += end;
    constexpr int kLineBytes = 8192; // as upstream: a longer line is cut at 8191 characters
    llvm::Function *fn = current_fn();
    llvm::IRBuilder<> entry(&fn->getEntryBlock(), fn->getEntryBlock().begin());
    llvm::Value *line = entry.CreateAlloca(llvm::ArrayType::get(i8_, kLineBytes), nullptr, "print_line");
    llvm::FunctionType *snprintf_ty = llvm::FunctionType::get(i32_, {ptr_, size_t_, ptr_}, true);
    llvm::FunctionCallee snprintf_fn = module_.getOrInsertFunction("snprintf", snprintf_ty);
    std::vector<llvm::Value *> call_args = {line, int_const(size_t_, kLineBytes),
                                            b_.CreateGlobalStringPtr(format, "print_format")};
    call_args.insert(call_args.end(), values.begin(), values.end());
    b_.CreateCall(snprintf_fn, call_args);
    return line;
}

void CodeGen_LLVM::emit_print(const std::vector<Expr> &args, size_t first, const char *separator) {
    llvm::Value *line = format_text(args, first, args.size(), separator, "\n");
    b_.CreateCall(runtime_fn("halide_print", llvm::Type::getVoidTy(ctx_), {ptr_, ptr_}), {sym(kUserContext), line});
}

llvm::Value *CodeGen_LLVM::emit_trace(const Call *op, llvm::Value *value) {
    const bool with_value = value != nullptr;
    // Arguments (after the value, if any): func, event, parent id,
    // value_index, number of tag parts, the tag parts, the coordinates.
    const size_t o = with_value ? 1 : 0;
    internal_assert(op->args.size() >= o + 5) << op->name << " needs at least " << o + 5 << " arguments";
    const StringImm *func = op->args[o].as<StringImm>();
    internal_assert(func) << op->name << ": the func name must be a string";
    const int64_t *tag_parts = as_const_int(op->args[o + 4]);
    internal_assert(tag_parts) << op->name << ": the number of tag parts must be a constant";
    const size_t coords_at = o + 5 + (size_t)*tag_parts;
    const size_t dims = op->args.size() - coords_at;

    llvm::Function *fn = current_fn();
    llvm::IRBuilder<> entry(&fn->getEntryBlock(), fn->getEntryBlock().begin());
    // halide_trace_event_t: func, value, coordinates, trace_tag, type
    // {code, bits, lanes}, event, parent_id, value_index, dimensions.
    llvm::StructType *event_ty = llvm::StructType::get(
        ctx_, {ptr_, ptr_, ptr_, ptr_, i8_, i8_, llvm::Type::getInt16Ty(ctx_), i32_, i32_, i32_, i32_});
    llvm::Value *event = entry.CreateAlloca(event_ty, nullptr, "trace_event");
    auto field = [&](unsigned i, llvm::Value *v) { b_.CreateStore(v, b_.CreateStructGEP(event_ty, event, i)); };

    Type vt = with_value ? op->args[0].type() : Type();
    const int lanes = with_value ? vt.lanes() : 1;
    llvm::Value *value_ptr = llvm::ConstantPointerNull::get(ptr_);
    if (with_value) {
        value_ptr = entry.CreateAlloca(mem_type(vt), nullptr, "trace_value");
        b_.CreateStore(to_memory(value, vt), value_ptr);
    }
    llvm::Value *coords_ptr = llvm::ConstantPointerNull::get(ptr_);
    if (dims > 0) {
        coords_ptr = entry.CreateAlloca(llvm::ArrayType::get(i32_, dims * (size_t)lanes), nullptr, "trace_coords");
        for (size_t d = 0; d < dims; d++) {
            llvm::Value *c = codegen(op->args[coords_at + d]);
            if (lanes > 1 && !c->getType()->isVectorTy()) {
                c = b_.CreateVectorSplat((unsigned)lanes, c);
            }
            llvm::Value *at = b_.CreateConstInBoundsGEP1_32(i32_, coords_ptr, (unsigned)(d * (size_t)lanes));
            b_.CreateAlignedStore(c, at, llvm::Align(4));
        }
    }
    llvm::Value *tag =
        *tag_parts > 0 ? format_text(op->args, o + 5, coords_at, "", "") : b_.CreateGlobalStringPtr("", "trace_no_tag");
    field(0, b_.CreateGlobalStringPtr(func->value, "trace_func"));
    field(1, value_ptr);
    field(2, coords_ptr);
    field(3, tag);
    // Events without a value have the type upstream gives them: handle, 0 bits, 0 lanes.
    field(4, int_const(i8_, with_value ? (int)vt.code() : (int)halide_type_handle));
    field(5, int_const(i8_, with_value ? vt.bits() : 0));
    field(6, int_const(llvm::Type::getInt16Ty(ctx_), with_value ? lanes : 0));
    field(7, b_.CreateIntCast(codegen(op->args[o + 1]), i32_, true));
    field(8, b_.CreateIntCast(codegen(op->args[o + 2]), i32_, true));
    field(9, b_.CreateIntCast(codegen(op->args[o + 3]), i32_, true));
    field(10, int_const(i32_, (int64_t)(dims * (size_t)lanes)));
    return b_.CreateCall(runtime_fn("halide_trace", i32_, {ptr_, ptr_}), {sym(kUserContext), event});
}
} // namespace Internal
} // namespace Halide
