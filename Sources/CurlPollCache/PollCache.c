// libcurl 7.88 checks the socket of every transfer it runs, on each `curl_multi_perform`, with a poll of
// that one socket and a zero timeout (`Curl_readwrite` → `Curl_socket_check`), unless it already knows
// the socket has data. An HTTP/2 connection carries hundreds of transfers, so a pass makes hundreds of
// system calls on one socket: about a dozen a push, over a tenth of a sender's CPU. This definition
// interposes libc's `poll` by name. Within a pass its lane opened, a check of descriptors and events this
// pass already found quiet is answered quiet again; any other call goes to libc. Answering quiet is what the
// kernel would have said a moment earlier: data or room that comes meanwhile wakes the lane's next
// `curl_multi_poll` at once, and its pass asks the kernel afresh. Nothing that is ready is ever reported
// as ready from memory: a socket found ready is checked again each time.
#define _GNU_SOURCE 1
#include "CurlPollCache.h"

#include <dlfcn.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <time.h>

typedef int (*poll_fn)(struct pollfd *, nfds_t, int);

static poll_fn libc_poll;
static pthread_once_t libc_poll_resolved = PTHREAD_ONCE_INIT;

static void resolve_libc_poll(void) {
    libc_poll = (poll_fn)dlsym(RTLD_NEXT, "poll");
}

// Without libc's `poll` at hand (a build linked differently), Linux's `ppoll`, which this file does not
// define.
static int system_poll(struct pollfd *fds, nfds_t count, int timeout) {
    pthread_once(&libc_poll_resolved, resolve_libc_poll);
    if (libc_poll) return libc_poll(fds, count, timeout);
#if defined(__linux__)
    struct timespec wait = {timeout / 1000, (long)(timeout % 1000) * 1000000L};
    return ppoll(fds, count, timeout < 0 ? NULL : &wait, NULL);
#else
    errno = ENOSYS;
    return -1;
#endif
}

// A lane holds a few connections; a pass that meets more forgets the oldest.
enum { quiet_slots = 32, largest_check = 3 };

struct quiet_socket {
    int fd;
    short events;
    uint64_t pass; // 0: unused
};

struct lane_passes {
    uint64_t pass;
    bool within;
    unsigned next_slot;
    uint64_t answered;
    struct quiet_socket quiet[quiet_slots];
};

static __thread struct lane_passes lane;
static _Atomic uint64_t answered_in_process;

void lg_poll_cache_begin_pass(void) {
    lane.pass += 1;
    lane.within = true;
}

void lg_poll_cache_end_pass(void) {
    lane.within = false;
    if (lane.answered) {
        atomic_fetch_add_explicit(&answered_in_process, lane.answered, memory_order_relaxed);
        lane.answered = 0;
    }
}

static struct quiet_socket *find_quiet(int fd, short events) {
    for (unsigned slot = 0; slot < quiet_slots; slot++) {
        struct quiet_socket *entry = &lane.quiet[slot];
        if (entry->pass == lane.pass && entry->fd == fd && entry->events == events) return entry;
    }
    return NULL;
}

void lg_poll_cache_forget(int fd) {
    for (unsigned slot = 0; slot < quiet_slots; slot++) {
        if (lane.quiet[slot].fd == fd) lane.quiet[slot].pass = 0;
    }
}

static void remember(const struct pollfd *check) {
    struct quiet_socket *entry = find_quiet(check->fd, check->events);
    if (check->revents != 0) {
        if (entry) entry->pass = 0;
        return;
    }
    if (entry) return;
    entry = &lane.quiet[lane.next_slot];
    lane.next_slot = (lane.next_slot + 1) % quiet_slots;
    *entry = (struct quiet_socket){.fd = check->fd, .events = check->events, .pass = lane.pass};
}

int poll(struct pollfd *fds, nfds_t count, int timeout) {
    if (!lane.within || timeout != 0 || count == 0 || count > largest_check) return system_poll(fds, count, timeout);
    bool known_quiet = true;
    for (nfds_t index = 0; index < count && known_quiet; index++) {
        known_quiet = find_quiet(fds[index].fd, fds[index].events) != NULL;
    }
    if (known_quiet) {
        for (nfds_t index = 0; index < count; index++) fds[index].revents = 0;
        lane.answered += 1;
        return 0;
    }
    int ready = system_poll(fds, count, timeout);
    if (ready >= 0) {
        for (nfds_t index = 0; index < count; index++) remember(&fds[index]);
    }
    return ready;
}

bool lg_poll_cache_active(void) {
    return dlsym(RTLD_DEFAULT, "poll") == (void *)poll;
}

uint64_t lg_polls_answered_from_cache(void) {
    return atomic_load_explicit(&answered_in_process, memory_order_relaxed);
}
