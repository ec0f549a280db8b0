// Error.h is header-only for now.
