// halide_buffer_t at run time: the buffer_* intrinsics that read a
// buffer's fields and answer bounds queries (ABI.md 2 and 9), by byte
// offset into the C struct as the target lays it out (RuntimeLayout.h), and
// Allocate, whose heap block comes from halide_malloc and is freed at the
// end of its scope or at an early return (a Stack or Register one is an alloca);
// and the constant halide_buffer_t of a Buffer embedded in AOT code.
#include "codegen/CodeGen_LLVM_Internal.h"

#include "codegen/BackendCommon.h"
#include "ir/AllocationSize.h"

#include <algorithm>

#include "Halide/Error.h"
#include "Halide/IR.h"

namespace Halide {
namespace Internal {

llvm::Value *CodeGen_LLVM::buffer_intrinsic(const Call *op) {
    const std::string &n = op->name;
    auto arg = [&](size_t i) {
        internal_assert(i < op->args.size()) << "intrinsic " << n << " needs argument " << i;
        return codegen(op->args[i]);
    };
    if (n == "buffer_get_host") {
        return load_field(arg(0), layout_.host, ptr_, layout_.pointer_align);
    }
    if (n == "buffer_get_min") {
        return dim_field(op, RuntimeLayout::kDimMin);
    }
    if (n == "buffer_get_extent") {
        return dim_field(op, RuntimeLayout::kDimExtent);
    }
    if (n == "buffer_get_stride") {
        return dim_field(op, RuntimeLayout::kDimStride);
    }
    if (n == "buffer_get_dimensions") {
        return fit(load_field(arg(0), layout_.dimensions, i32_, 4), op->type);
    }
    if (n == "buffer_get_type") {
        return fit(load_field(arg(0), layout_.type, i32_, 4), op->type);
    }
    if (n == "buffer_get_flags") {
        return fit(load_field(arg(0), layout_.flags, i64_, layout_.int64_align), op->type);
    }
    if (n == "buffer_fill_query") {
        fill_bounds_query(op);
        return llvm::ConstantInt::get(i32_, 0);
    }
    if (n == "buffer_is_bounds_query") {
        llvm::Value *buf = arg(0);
        llvm::Value *host = load_field(buf, layout_.host, ptr_, layout_.pointer_align);
        llvm::Value *device = load_field(buf, layout_.device, i64_, layout_.int64_align);
        return b_.CreateAnd(b_.CreateIsNull(host), b_.CreateIsNull(device));
    }
    if (n == "buffer_make") {
        return make_stack_buffer(op);
    }
    internal_error << "Unknown intrinsic in codegen: " << n;
}

// buffer_make(host or an int 0 for none, element offset, type code, bits,
// lanes, dimensions, then min, extent, stride per dimension): a
// halide_buffer_t and its dimensions in the function's stack frame, as an
// extern stage takes them (lower/ExternStages.cpp).
llvm::Value *CodeGen_LLVM::make_stack_buffer(const Call *op) {
    auto constant = [&](size_t i) {
        const IntImm *c = op->args[i].as<IntImm>();
        internal_assert(c) << "buffer_make argument " << i << " must be a constant";
        return c->value;
    };
    int64_t code = constant(2), bits = constant(3), lanes = constant(4), dims = constant(5);
    internal_assert(op->args.size() == (size_t)(6 + 3 * dims)) << "buffer_make takes 3 values per dimension";
    llvm::IRBuilder<> entry(&current_fn()->getEntryBlock(), current_fn()->getEntryBlock().begin());
    llvm::Value *buf = entry.CreateAlloca(llvm::ArrayType::get(i64_, layout_.buffer_size / 8), nullptr, "stack_buffer");
    llvm::Value *shape = llvm::ConstantPointerNull::get(llvm::PointerType::get(ctx_, 0));
    if (dims > 0) {
        shape = entry.CreateAlloca(llvm::ArrayType::get(i64_, dims * RuntimeLayout::kDimSize / 8), nullptr,
                                   "stack_buffer_dims");
    }
    llvm::Value *null = llvm::ConstantPointerNull::get(llvm::PointerType::get(ctx_, 0));
    llvm::Value *host = null;
    if (op->args[0].type().is_handle()) {
        llvm::Value *offset =
            b_.CreateMul(to_i64(codegen(op->args[1]), op->args[1].type()), int_const(i64_, (bits + 7) / 8 * lanes));
        host = b_.CreateInBoundsGEP(i8_, codegen(op->args[0]), offset);
    }
    store_field(buf, layout_.device, int_const(i64_, 0), layout_.int64_align);
    store_field(buf, layout_.device_interface, null, layout_.pointer_align);
    store_field(buf, layout_.host, host, layout_.pointer_align);
    store_field(buf, layout_.flags, int_const(i64_, 0), layout_.int64_align);
    store_field(buf, layout_.type, int_const(i32_, code | bits << 8 | lanes << 16), 4);
    store_field(buf, layout_.dimensions, int_const(i32_, dims), 4);
    store_field(buf, layout_.dim, shape, layout_.pointer_align);
    store_field(buf, layout_.padding, null, layout_.pointer_align);
    for (int64_t d = 0; d < dims; d++) {
        const int fields[3] = {RuntimeLayout::kDimMin, RuntimeLayout::kDimExtent, RuntimeLayout::kDimStride};
        for (int k = 0; k < 3; k++) {
            const Expr &e = op->args[6 + 3 * d + k];
            store_field(shape, (int)d * RuntimeLayout::kDimSize + fields[k], to_i32(codegen(e), e.type()), 4);
        }
        store_field(shape, (int)d * RuntimeLayout::kDimSize + RuntimeLayout::kDimFlags, int_const(i32_, 0), 4);
    }
    return buf;
}

void CodeGen_LLVM::fill_bounds_query(const Call *op) {
    llvm::Value *buf = codegen(op->args[0]);
    llvm::Value *type = b_.CreateOr(codegen(op->args[1]), llvm::ConstantInt::get(i32_, 1u << 16));
    int dims = (int)op->args[2].as<IntImm>()->value;
    store_field(buf, layout_.type, type, 4);
    store_field(buf, layout_.dimensions, llvm::ConstantInt::get(i32_, dims), 4);
    store_field(buf, layout_.flags, llvm::ConstantInt::get(i64_, 0), layout_.int64_align);
    llvm::Value *dim = load_field(buf, layout_.dim, ptr_, layout_.pointer_align);
    llvm::Value *stride = llvm::ConstantInt::get(i32_, 1);
    for (int d = 0; d < dims; d++) {
        llvm::Value *min = to_i32(codegen(op->args[3 + 2 * d]), op->args[3 + 2 * d].type());
        llvm::Value *extent = to_i32(codegen(op->args[4 + 2 * d]), op->args[4 + 2 * d].type());
        store_field(dim, d * RuntimeLayout::kDimSize + RuntimeLayout::kDimMin, min, 4);
        store_field(dim, d * RuntimeLayout::kDimSize + RuntimeLayout::kDimExtent, extent, 4);
        store_field(dim, d * RuntimeLayout::kDimSize + RuntimeLayout::kDimStride, stride, 4);
        store_field(dim, d * RuntimeLayout::kDimSize + RuntimeLayout::kDimFlags, llvm::ConstantInt::get(i32_, 0), 4);
        stride = b_.CreateMul(stride, extent);
    }
}

void CodeGen_LLVM::store_field(llvm::Value *base, int offset, llvm::Value *v, int align) {
    llvm::Value *addr = b_.CreateConstInBoundsGEP1_64(i8_, base, offset);
    b_.CreateAlignedStore(v, addr, llvm::Align(align));
}

llvm::Value *CodeGen_LLVM::load_field(llvm::Value *base, int offset, llvm::Type *ty, int align) {
    llvm::Value *addr = b_.CreateConstInBoundsGEP1_64(i8_, base, offset);
    return b_.CreateAlignedLoad(ty, addr, llvm::Align(align));
}

llvm::Value *CodeGen_LLVM::dim_field(const Call *op, int field_offset) {
    internal_assert(op->args.size() == 2) << op->name << " takes (buffer, dimension)";
    llvm::Value *buf = codegen(op->args[0]);
    llvm::Value *d = to_i64(codegen(op->args[1]), op->args[1].type());
    llvm::Value *dims = load_field(buf, layout_.dim, ptr_, layout_.pointer_align);
    llvm::Value *off =
        b_.CreateAdd(b_.CreateMul(d, int_const(i64_, RuntimeLayout::kDimSize)), int_const(i64_, field_offset));
    llvm::Value *addr = b_.CreateInBoundsGEP(i8_, dims, off);
    return fit(b_.CreateAlignedLoad(i32_, addr, llvm::Align(4)), op->type);
}

void CodeGen_LLVM::allocate(const Allocate *op) {
    if (op->new_expr.defined()) {
        // Memory someone else allocated (the memoization cache), given back
        // through free_function.
        llvm::Value *p = codegen(op->new_expr);
        push(op->name + ".host", p);
        live_allocations_.emplace_back(p, op->free_function);
        codegen(op->body);
        live_allocations_.pop_back();
        pop(op->name + ".host");
        llvm::FunctionCallee free_fn = runtime_fn(op->free_function, llvm::Type::getVoidTy(ctx_), {ptr_, ptr_});
        b_.CreateCall(free_fn, {sym(kUserContext), p});
        return;
    }
    if (op->memory_type == MemoryType::Stack || op->memory_type == MemoryType::Register) {
        allocate_on_stack(op);
        return;
    }
    // A small block of constant size goes on the stack unless asked for the
    // heap (ir/AllocationSize.h).
    if (auto_allocation_on_stack(op)) {
        allocate_on_stack(op);
        return;
    }
    llvm::Value *bytes = int_const(i64_, op->type.bytes());
    for (const Expr &e : op->extents) {
        bytes = b_.CreateMul(bytes, to_i64(codegen(e), e.type()));
    }
    // A zero-byte request may legally return NULL; ask for one byte instead,
    // but for an unused producer's storage (an extent select(used, e, 0),
    // lower/SkipStages.cpp), asked for as zero bytes as upstream asks.
    bool skippable = std::any_of(op->extents.begin(), op->extents.end(), [](const Expr &e) {
        const Select *s = e.as<Select>();
        return s && is_const_zero(s->false_value);
    });
    llvm::Value *is_empty = b_.CreateICmpEQ(bytes, int_const(i64_, 0));
    llvm::Value *request =
        skippable ? bytes : b_.CreateSelect(is_empty, int_const(i64_, 1), bytes, op->name + ".bytes");
    llvm::FunctionCallee malloc_fn = runtime_fn("halide_malloc", ptr_, {ptr_, size_t_});
    if (auto *f = llvm::dyn_cast<llvm::Function>(malloc_fn.getCallee())) {
        f->addRetAttr(llvm::Attribute::NoAlias);
    }
    llvm::Value *uc = sym(kUserContext);
    // size_t is narrower than the request on a 32-bit target: a request
    // that does not fit fails as an out-of-memory.
    llvm::Value *fits = b_.CreateICmpULE(request, b_.CreateZExt(llvm::ConstantInt::getAllOnesValue(size_t_), i64_));
    llvm::Value *p = b_.CreateCall(malloc_fn, {uc, b_.CreateTrunc(request, size_t_)}, op->name + ".host");
    p = b_.CreateSelect(fits, p, llvm::ConstantPointerNull::get(ptr_));
    llvm::BasicBlock *fail = new_block(op->name + "_alloc_failed");
    llvm::BasicBlock *ok = new_block(op->name + "_alloc_ok");
    llvm::Value *success = b_.CreateIsNotNull(p);
    branch_likely(skippable ? b_.CreateOr(success, is_empty) : success, ok, fail);
    b_.SetInsertPoint(fail);
    llvm::FunctionCallee oom = runtime_fn("halide_error_out_of_memory", i32_, {ptr_});
    emit_return(b_.CreateCall(oom, {uc}));
    b_.SetInsertPoint(ok);

    push(op->name + ".host", p);
    live_allocations_.emplace_back(p, "halide_free");
    codegen(op->body);
    live_allocations_.pop_back();
    pop(op->name + ".host");
    llvm::FunctionCallee free_fn = runtime_fn("halide_free", llvm::Type::getVoidTy(ctx_), {ptr_, ptr_});
    b_.CreateCall(free_fn, {sym(kUserContext), p});
}
void CodeGen_LLVM::allocate_on_stack(const Allocate *op) {
    bool constant = false;
    int64_t count = constant_element_count(op, &constant);
    llvm::Type *elem = llvm::Type::getIntNTy(ctx_, op->type.bytes() * 8);
    llvm::Align align(32);
    if (constant) {
        // In the function's entry block, where LLVM can keep it in registers
        // (Register) and where a loop around it reuses one block.
        llvm::Function *fn = current_fn();
        llvm::IRBuilder<> entry_b(&fn->getEntryBlock(), fn->getEntryBlock().begin());
        llvm::AllocaInst *p =
            entry_b.CreateAlloca(llvm::ArrayType::get(elem, std::max<int64_t>(count, 1)), nullptr, op->name + ".host");
        p->setAlignment(align);
        push(op->name + ".host", p);
        codegen(op->body);
        pop(op->name + ".host");
        return;
    }
    // A size known only at run time: a stack block released when the body ends.
    llvm::Value *n = int_const(i64_, 1);
    for (const Expr &e : op->extents) {
        n = b_.CreateMul(n, to_i64(codegen(e), e.type()));
    }
    n = b_.CreateSelect(b_.CreateICmpSGT(n, int_const(i64_, 0)), n, int_const(i64_, 1));
    llvm::Value *saved = b_.CreateStackSave(op->name + ".stack");
    llvm::AllocaInst *p = b_.CreateAlloca(elem, n, op->name + ".host");
    p->setAlignment(align);
    push(op->name + ".host", p);
    codegen(op->body);
    pop(op->name + ".host");
    b_.CreateStackRestore(saved);
}

llvm::Constant *CodeGen_LLVM::embedded_buffer(const EmbeddedBuffer &e) {
    const halide_buffer_t &b = *e.buffer;
    int64_t offset = 0;
    std::string bytes = embedded_contents(e, &offset);
    auto *data = new llvm::GlobalVariable(
        module_, llvm::ArrayType::get(i8_, bytes.size()), true, llvm::GlobalValue::PrivateLinkage,
        llvm::ConstantDataArray::getString(ctx_, bytes, false), "." + func_name_ + "." + e.name + ".data");
    data->setAlignment(llvm::Align(128));
    llvm::Constant *host =
        llvm::ConstantExpr::getGetElementPtr(i8_, data, llvm::ConstantInt::get(i64_, (uint64_t)offset));

    llvm::StructType *dim_ty = llvm::StructType::get(ctx_, {i32_, i32_, i32_, i32_});
    std::vector<llvm::Constant *> dims;
    for (int d = 0; d < b.dimensions; d++) {
        dims.push_back(
            llvm::ConstantStruct::get(dim_ty, {llvm::ConstantInt::get(i32_, (uint64_t)(int64_t)b.dim[d].min),
                                               llvm::ConstantInt::get(i32_, (uint64_t)(int64_t)b.dim[d].extent),
                                               llvm::ConstantInt::get(i32_, (uint64_t)(int64_t)b.dim[d].stride),
                                               llvm::ConstantInt::get(i32_, 0)}));
    }
    llvm::Constant *dim = llvm::ConstantPointerNull::get(ptr_);
    if (!dims.empty()) {
        auto *dims_ty = llvm::ArrayType::get(dim_ty, dims.size());
        dim =
            new llvm::GlobalVariable(module_, dims_ty, false, llvm::GlobalValue::PrivateLinkage,
                                     llvm::ConstantArray::get(dims_ty, dims), "." + func_name_ + "." + e.name + ".dim");
    }
    // halide_buffer_t (ABI.md 2): device, device_interface, host, flags,
    // type {code, bits, lanes}, dimensions, dim, padding. Writable, like any
    // buffer handed to a pipeline.
    llvm::Type *i16 = llvm::Type::getInt16Ty(ctx_);
    llvm::StructType *type_ty = llvm::StructType::get(ctx_, {i8_, i8_, i16});
    llvm::StructType *buf_ty = llvm::StructType::get(ctx_, {i64_, ptr_, ptr_, i64_, type_ty, i32_, ptr_, ptr_});
    llvm::Constant *type = llvm::ConstantStruct::get(type_ty, {llvm::ConstantInt::get(i8_, b.type.code),
                                                               llvm::ConstantInt::get(i8_, b.type.bits),
                                                               llvm::ConstantInt::get(i16, b.type.lanes)});
    llvm::Constant *fields[] = {llvm::ConstantInt::get(i64_, 0),
                                llvm::ConstantPointerNull::get(ptr_),
                                host,
                                llvm::ConstantInt::get(i64_, 0),
                                type,
                                llvm::ConstantInt::get(i32_, (uint64_t)(int64_t)b.dimensions),
                                dim,
                                llvm::ConstantPointerNull::get(ptr_)};
    auto *buf = new llvm::GlobalVariable(module_, buf_ty, false, llvm::GlobalValue::PrivateLinkage,
                                         llvm::ConstantStruct::get(buf_ty, fields),
                                         "." + func_name_ + "." + e.name + ".buffer");
    buf->setAlignment(llvm::Align(8));
    return buf;
}

} // namespace Internal
} // namespace Halide
