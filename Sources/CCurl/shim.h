#ifndef LIVEGATE_CCURL_SHIM_H
#define LIVEGATE_CCURL_SHIM_H

#include <curl/curl.h>

/*
 * curl_easy_setopt, curl_multi_setopt and curl_easy_getinfo are variadic, which Swift cannot call.
 * Each shim fixes the argument's type, so the option and the value it takes are checked at compile time.
 */

typedef size_t (*lg_curl_data_callback)(char *data, size_t size, size_t count, void *userdata);
typedef int (*lg_curl_prereq_callback)(
    void *userdata, char *primary_ip, char *local_ip, int primary_port, int local_port);

static inline CURLcode lg_curl_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode lg_curl_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode lg_curl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode lg_curl_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode lg_curl_easy_setopt_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode lg_curl_easy_setopt_data_callback(CURL *handle, CURLoption option, lg_curl_data_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}

static inline CURLcode lg_curl_easy_setopt_prereq_callback(CURL *handle, CURLoption option, lg_curl_prereq_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}

static inline CURLcode lg_curl_easy_setopt_opensocket_callback(
    CURL *handle, CURLoption option, curl_opensocket_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}

static inline CURLcode lg_curl_easy_setopt_closesocket_callback(
    CURL *handle, CURLoption option, curl_closesocket_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}

static inline CURLcode lg_curl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode lg_curl_easy_getinfo_offset(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode lg_curl_easy_getinfo_pointer(CURL *handle, CURLINFO info, void **value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLMcode lg_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

#endif
