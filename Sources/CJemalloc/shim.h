#ifndef LIVEGATE_CJEMALLOC_SHIM_H
#define LIVEGATE_CJEMALLOC_SHIM_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <stddef.h>
#include <string.h>

/*
 * Linking libjemalloc before libc makes its malloc and free the process's: Swift's runtime, libcurl,
 * libpq and OpenSSL all allocate through it. Only mallctl is declared here (jemalloc.h would declare
 * malloc a second time beside Glibc's).
 */
int mallctl(const char *name, void *oldp, size_t *oldlenp, void *newp, size_t newlen);

/* jemalloc's version ("5.3.0-0-g..."), or NULL if mallctl cannot say. */
static inline const char *lg_jemalloc_version(void) {
    const char *version = NULL;
    size_t length = sizeof version;
    return mallctl("version", &version, &length, NULL, 0) == 0 ? version : NULL;
}

/* 1 when jemalloc's background threads return unused pages to the system. */
static inline int lg_jemalloc_purges_in_background(void) {
    _Bool now = 0;
    size_t length = sizeof now;
    return mallctl("background_thread", &now, &length, NULL, 0) == 0 && now;
}

/* Moves jemalloc's return of unused pages to the system onto threads of its own ("background_thread"),
   off the threads that allocate; 1 when it is on. */
static inline int lg_jemalloc_purge_in_background(void) {
    _Bool on = 1;
    return mallctl("background_thread", NULL, NULL, &on, sizeof on) == 0 && lg_jemalloc_purges_in_background();
}

/* Whether the malloc this process calls is jemalloc's: a build that linked libc first would call glibc's
   while mallctl still answered. */
static inline int lg_malloc_is_jemalloc(void) {
    Dl_info info;
    void *symbol = dlsym(RTLD_DEFAULT, "malloc");
    if (symbol == NULL || dladdr(symbol, &info) == 0 || info.dli_fname == NULL) return 0;
    return strstr(info.dli_fname, "jemalloc") != NULL;
}

#endif
