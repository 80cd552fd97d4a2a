#ifndef LIVEGATE_CURL_STREAM_RESET_H
#define LIVEGATE_CURL_STREAM_RESET_H

#include <stdbool.h>
#include <stdint.h>

/// True when libcurl's calls to `nghttp2_submit_rst_stream` reach the filter in this process (it is
/// interposed by symbol name, so a build that links differently sends every reset as libcurl asks).
bool lg_stream_reset_filter_active(void);

/// How many resets of streams that had already ended the filter has left unsent, in this process.
uint64_t lg_stream_resets_left_unsent(void);

#endif
