// The app's entry: Braze's call sites are in BrazeCallSites.swift beside it, copied from LiveGateKit's
// tests by scripts/check-sdk-package.sh. Building this package is the test.
#if canImport(ActivityKit)
    if #available(iOS 17.2, macOS 13.0, *) {
        _ = AppDelegate().application()
        print("Braze's call sites compiled against LiveGateKit")
    }
#endif
