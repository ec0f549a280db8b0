// See Extern.h.
#include "Halide/Extern.h"

#include "Halide/Error.h"
#include "Halide/IR.h"
#include "Halide/IRPrinter.h"

namespace Halide {
namespace Internal {

Expr make_extern_call(Type ret, const std::string &name, const std::vector<Expr> &args,
                      const std::vector<Type> &arg_types, bool) {
    for (size_t i = 0; i < args.size(); i++) {
        user_assert(args[i].defined()) << "Argument " << i + 1 << " of the call to extern function " << name
                                       << " is undefined";
        user_assert(args[i].type() == arg_types[i])
            << "Type mismatch for argument " << i + 1 << " to extern function " << name << ". Type expected is "
            << arg_types[i] << " but the argument type is " << args[i].type() << ".";
    }
    return Call::make(ret, name, args, Call::Extern);
}

} // namespace Internal

Expr user_context_value() {
    return Internal::Variable::make(Handle(), "__user_context");
}

} // namespace Halide
