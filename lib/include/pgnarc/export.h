// PGNARC_EXPORT marks the library's public classes and functions. The library compiles with
// -fvisibility=hidden, so a shared libpgnarc exports exactly these: every class and struct of
// the public headers (with its members) and every function they declare. A static build leaves
// it without effect.
#pragma once

#if defined(_WIN32)
#define PGNARC_EXPORT
#else
#define PGNARC_EXPORT __attribute__((visibility("default")))
#endif

// PGNARC_HIDDEN goes on the definition of a public class's private part (its Impl, in the
// library's sources), which would otherwise take the class's visibility and export its members.
#if defined(_WIN32)
#define PGNARC_HIDDEN
#else
#define PGNARC_HIDDEN __attribute__((visibility("hidden")))
#endif
