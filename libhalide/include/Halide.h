// Halide.h: the whole public C++ API of the Halide compiler.
#ifndef HALIDE_HALIDE_H
#define HALIDE_HALIDE_H

#include "Halide/Argument.h"
#include "Halide/BoundaryConditions.h"
#include "Halide/Buffer.h"
#include "Halide/Callable.h"
#include "Halide/DeviceAPI.h"
#include "Halide/Error.h"
#include "Halide/Evaluate.h"
#include "Halide/Expr.h"
#include "Halide/Float16.h"
#include "Halide/Func.h"
#include "Halide/Generator.h"
#include "Halide/IRMutator.h"
#include "Halide/IROperator.h"
#include "Halide/IRVisitor.h"
#include "Halide/InlineReductions.h"
#include "Halide/JITModule.h"
#include "Halide/Lambda.h"
#include "Halide/Param.h"
#include "Halide/Pipeline.h"
#include "Halide/RDom.h"
#include "Halide/Realization.h"
#include "Halide/Schedule.h"
#include "Halide/Target.h"
#include "Halide/Tuple.h"
#include "Halide/Type.h"
#include "Halide/Var.h"

#endif
