// Linked into the halide-bin wheel's libhalide only (static LLVM).
//
// Debian's static libLLVMExtensions.a, which lld's LTO needs, refers to
// Polly's plugin entry point, but Debian ships Polly only as a loadable
// plugin (LLVMPolly.so), not as a static library. This definition registers
// no passes, so LLVM behaves as if built without Polly. The code that calls it
// runs only when lld is given LLVM bitcode (LTO), which libhalide never does.
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Passes/PassPlugin.h>

llvm::PassPluginLibraryInfo getPollyPluginInfo();

llvm::PassPluginLibraryInfo getPollyPluginInfo() {
    return {LLVM_PLUGIN_API_VERSION, "Polly (not linked into libhalide)", "0", [](llvm::PassBuilder &) {}};
}
