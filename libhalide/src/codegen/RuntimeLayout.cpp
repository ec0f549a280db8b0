// See RuntimeLayout.h. The struct is declared to LLVM field by field, as
// HalideRuntime.h declares it, and LLVM places the fields by the target's
// rules, as the target's C compiler does.
#include "codegen/RuntimeLayout.h"

#include "codegen/LLVM_Headers.h"

namespace Halide {
namespace Internal {

RuntimeLayout runtime_layout(const llvm::DataLayout &dl, llvm::LLVMContext &ctx) {
    llvm::Type *i8 = llvm::Type::getInt8Ty(ctx), *i16 = llvm::Type::getInt16Ty(ctx);
    llvm::Type *i32 = llvm::Type::getInt32Ty(ctx), *i64 = llvm::Type::getInt64Ty(ctx);
    llvm::Type *ptr = llvm::PointerType::get(ctx, 0);
    llvm::StructType *type_ty = llvm::StructType::get(ctx, {i8, i8, i16});
    llvm::StructType *buf_ty = llvm::StructType::get(ctx, {i64, ptr, ptr, i64, type_ty, i32, ptr, ptr});
    const llvm::StructLayout *sl = dl.getStructLayout(buf_ty);
    auto at = [&](unsigned field) { return (int)sl->getElementOffset(field); };
    RuntimeLayout r;
    r.device = at(0);
    r.device_interface = at(1);
    r.host = at(2);
    r.flags = at(3);
    r.type = at(4);
    r.dimensions = at(5);
    r.dim = at(6);
    r.padding = at(7);
    r.buffer_size = (int)sl->getSizeInBytes();
    r.pointer_align = (int)dl.getABITypeAlign(ptr).value();
    r.int64_align = (int)dl.getABITypeAlign(i64).value();
    return r;
}

} // namespace Internal
} // namespace Halide
