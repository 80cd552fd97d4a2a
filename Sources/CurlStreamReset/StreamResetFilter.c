// libcurl 7.88 ends every HTTP/2 transfer whose answer had no body (APNs's 200) with an RST_STREAM, though
// the server closed the stream with that answer: it clears its own "closed" mark while reading the
// answer, and its done-handler then takes the stream for one still open (fixed in libcurl 8.0.0). Each
// such reset costs a TLS record and a send on the sender and a record to read on the server, for a stream
// that no longer exists (RFC 9113 5.1: nothing but PRIORITY is sent on a closed stream). This definition
// interposes nghttp2's by name: a reset of a stream nghttp2 no longer has open is dropped; any other (a
// transfer given up before its answer, a refused push) goes to nghttp2 as libcurl asked.
#define _GNU_SOURCE 1
#include "CurlStreamReset.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

// nghttp2's public API (nghttp2.h), declared here so that no development package is needed: the
// functions are resolved at run time in the libnghttp2 libcurl loaded.
typedef struct nghttp2_session nghttp2_session;
typedef struct nghttp2_stream nghttp2_stream;
typedef int (*submit_rst_stream_fn)(nghttp2_session *, uint8_t, int32_t, uint32_t);
typedef nghttp2_stream *(*find_stream_fn)(nghttp2_session *, int32_t);
typedef int (*stream_get_state_fn)(nghttp2_stream *);
enum { stream_state_closed = 7 }; // NGHTTP2_STREAM_STATE_CLOSED

struct nghttp2_functions {
    submit_rst_stream_fn submit_rst_stream;
    find_stream_fn find_stream;
    stream_get_state_fn stream_get_state;
};

static _Atomic uint64_t left_unsent;

static struct nghttp2_functions functions;
static pthread_once_t functions_resolved = PTHREAD_ONCE_INIT;

static void resolve_functions(void) {
    functions.submit_rst_stream = (submit_rst_stream_fn)dlsym(RTLD_NEXT, "nghttp2_submit_rst_stream");
    functions.find_stream = (find_stream_fn)dlsym(RTLD_DEFAULT, "nghttp2_session_find_stream");
    functions.stream_get_state = (stream_get_state_fn)dlsym(RTLD_DEFAULT, "nghttp2_stream_get_state");
}

static const struct nghttp2_functions *nghttp2(void) {
    pthread_once(&functions_resolved, resolve_functions);
    return &functions;
}

int nghttp2_submit_rst_stream(nghttp2_session *session, uint8_t flags, int32_t stream_id, uint32_t error_code) {
    const struct nghttp2_functions *nghttp2_api = nghttp2();
    if (stream_id > 0 && nghttp2_api->find_stream && nghttp2_api->stream_get_state) {
        // A stream is created when libcurl submits its request, so one nghttp2 cannot find has closed.
        nghttp2_stream *stream = nghttp2_api->find_stream(session, stream_id);
        if (!stream || nghttp2_api->stream_get_state(stream) == stream_state_closed) {
            atomic_fetch_add_explicit(&left_unsent, 1, memory_order_relaxed);
            return 0;
        }
    }
    if (!nghttp2_api->submit_rst_stream) return -501; // NGHTTP2_ERR_INVALID_ARGUMENT: nothing to send it with
    return nghttp2_api->submit_rst_stream(session, flags, stream_id, error_code);
}

bool lg_stream_reset_filter_active(void) {
    return dlsym(RTLD_DEFAULT, "nghttp2_submit_rst_stream") == (void *)nghttp2_submit_rst_stream
        && nghttp2()->find_stream != NULL && nghttp2()->stream_get_state != NULL;
}

uint64_t lg_stream_resets_left_unsent(void) {
    return atomic_load_explicit(&left_unsent, memory_order_relaxed);
}
