#ifndef LIVEGATE_CURL_POLL_CACHE_H
#define LIVEGATE_CURL_POLL_CACHE_H

#include <stdbool.h>
#include <stdint.h>

/// Opens a pass of `curl_multi_perform` on the calling thread: until `lg_poll_cache_end_pass`, a socket
/// check (`poll` with a zero timeout) whose descriptors and events this pass already found quiet is
/// answered "quiet" without a system call.
void lg_poll_cache_begin_pass(void);

/// Closes the calling thread's pass: every check after it asks the kernel again.
void lg_poll_cache_end_pass(void);

/// Forgets what the calling thread's pass learnt about `fd` (a socket just opened or about to close,
/// whose number may be reused).
void lg_poll_cache_forget(int fd);

/// True when libcurl's calls to `poll` reach the cache in this process (it is interposed by symbol name,
/// so a build that links differently makes every check a system call).
bool lg_poll_cache_active(void);

/// How many socket checks the cache has answered in this process, counted as each pass ends.
uint64_t lg_polls_answered_from_cache(void);

#endif
