// PGNARC_EXPORT marks the library's public functions and classes, so that a shared build can hide
// everything else (-fvisibility=hidden); a static build leaves it empty of effect.
#pragma once

#if defined(_WIN32)
#define PGNARC_EXPORT
#else
#define PGNARC_EXPORT __attribute__((visibility("default")))
#endif
