// The only code of the SDK that touches ActivityKit: it turns activities and their sequences into the
// plain values and sequences `LiveActivities` follows. Compiled on iOS against Apple's ActivityKit, and on
// Linux against the package's stand-in of the same name (Sources/ActivityKit; the package defines
// LIVEGATEKIT_ACTIVITYKIT_STAND_IN there): the same file, with no other change.
#if canImport(ActivityKit) && (os(iOS) || LIVEGATEKIT_ACTIVITYKIT_STAND_IN)
    import ActivityKit
    import Foundation

    // iOS 16.2: `ActivityContent`, `ActivityState.stale` and `request(attributes:content:pushType:)`.
    @available(iOS 16.2, *)
    extension LiveActivities {
        /// Braze's `launchActivity(pushTokenTag:activity:)`: registers the activity's update token under
        /// the tag (every rotation, with its type's name: `attributesTypeName(of:)`) and reports its states,
        /// until it ends.
        @discardableResult
        public func launchActivity<Attributes: ActivityAttributes>(
            pushTokenTag: String, activity: Activity<Attributes>
        )
            -> Task<Void, Never>
        {
            follow(activity, tag: pushTokenTag, attributesType: Self.attributesTypeName(of: Attributes.self), channelID: nil)
        }

        /// Braze's `resumeActivities(ofType:)`: after a relaunch, follows again the running activities of
        /// this type that were launched with a tag, or that a push-to-start tagged (`brazeActivityId`).
        public func resumeActivities<Attributes: ActivityAttributes>(ofType type: Attributes.Type) {
            for activity in Activity<Attributes>.activities {
                let id = activity.id
                let started = (activity.attributes as? any LiveGateActivityAttributes)?.brazeActivityId
                let name = Self.attributesTypeName(of: Attributes.self)
                let follow = FollowLater { tag in self.follow(activity, tag: tag, attributesType: name, channelID: nil) }
                Task {
                    guard let tag = await self.tag(forActivity: id) ?? started else { return }
                    follow.run(tag)
                }
            }
        }

        /// `resumeActivities(ofType:)` as Braze's call sites write it: `ofType: Activity<OrderAttributes>.self`.
        public func resumeActivities<Attributes: ActivityAttributes>(ofType type: Activity<Attributes>.Type) {
            resumeActivities(ofType: Attributes.self)
        }

        /// Braze's `registerPushToStart(forType:name:)`: registers the type's push-to-start token under
        /// `name` (every rotation), and follows each activity the system starts for it that carries a
        /// `brazeActivityId`, under that id: its update token (with `name` as its type, as the start named
        /// it), then its state, each of which confirms the start. The task returned follows both until it is
        /// cancelled, `unregisterPushToStart` is called, or the SDK shuts down.
        @available(iOS 17.2, *)
        @discardableResult
        public func registerPushToStart<Attributes: ActivityAttributes>(
            forType type: Attributes.Type, name: String
        )
            -> Task<Void, Never>
        {
            nonisolated(unsafe) let tokens = Activity<Attributes>.pushToStartTokenUpdates
            nonisolated(unsafe) let started = Activity<Attributes>.activityUpdates
            let following = trackPushToStart(type: name, tokens: tokens)
            // Each started activity that a start tagged, as the work of following it under that tag.
            let tagged = SequenceReader(started) { activity -> (tag: String, follow: FollowLater)? in
                guard let tag = (activity.attributes as? any LiveGateActivityAttributes)?.brazeActivityId else { return nil }
                return (tag, FollowLater { tag in self.follow(activity, tag: tag, attributesType: name, channelID: nil) })
            }
            let starts = Task {
                while let started = try? await tagged.next() {
                    if Task.isCancelled { break }
                    started.follow.run(started.tag)
                }
            }
            tracking.addPushToStart(starts, type: name)
            return Task {
                await withTaskCancellationHandler {
                    await following.value
                    await starts.value
                } onCancel: {
                    following.cancel()
                    starts.cancel()
                }
            }
        }

        /// `registerPushToStart(forType:name:)` as Braze's call sites write it:
        /// `forType: Activity<OrderAttributes>.self`.
        @available(iOS 17.2, *)
        @discardableResult
        public func registerPushToStart<Attributes: ActivityAttributes>(
            forType type: Activity<Attributes>.Type, name: String
        )
            -> Task<Void, Never>
        {
            registerPushToStart(forType: Attributes.self, name: name)
        }

        /// Starts an activity that follows the broadcast channel of `activityID` (iOS 18): looks it up
        /// (`GET /push_channel`) and requests the activity with `pushType: .channel(id)`; without a
        /// channel, with a token registered under `activityID`. Either way it is followed and reported.
        @available(iOS 18.0, *)
        public func startActivity<Attributes: ActivityAttributes>(
            attributes: Attributes, content: ActivityContent<Attributes.ContentState>, onChannelOf activityID: String
        ) async throws -> Activity<Attributes> {
            let channel: String?
            do {
                channel = try await channelID(forActivity: activityID)
            } catch {
                publish(LiveGateError(code: .activityRequestFailed, message: "the channel lookup failed; starting with a token"))
                channel = nil
            }
            let activity = try Activity.request(
                attributes: attributes, content: content, pushType: channel.map { PushType.channel($0) } ?? .token)
            follow(activity, tag: activityID, attributesType: Self.attributesTypeName(of: Attributes.self), channelID: channel)
            return activity
        }

        @discardableResult
        private func follow<Attributes: ActivityAttributes>(
            _ activity: Activity<Attributes>, tag: String, attributesType: String, channelID: String?
        )
            -> Task<Void, Never>
        {
            followFrequentPushes()
            // ActivityKit's sequences are not declared Sendable; each is iterated by one task only.
            nonisolated(unsafe) let tokens = activity.pushTokenUpdates
            nonisolated(unsafe) let states = activity.activityStateUpdates.compactMap { LiveActivityState($0) }
            return trackActivity(
                tag: tag, activityID: activity.id, attributesType: attributesType, channelID: channelID,
                currentState: LiveActivityState(activity.activityState), pushTokens: tokens, states: states)
        }

        /// The person's frequent-updates setting goes with every state report, and each change of it is
        /// reported (`reportFrequentPushesEnabled`); one task follows it for the SDK, from the first
        /// activity followed.
        private func followFrequentPushes() {
            guard device.startWatching() else { return }
            let authorization = ActivityAuthorizationInfo()
            _ = device.setFrequentPushesEnabled(authorization.frequentPushesEnabled)
            nonisolated(unsafe) let changes = authorization.frequentPushEnablementUpdates
            let reader = SequenceReader(changes)
            tracking.add(
                Task {
                    while let enabled = try? await reader.next() {
                        if Task.isCancelled { break }
                        await self.reportFrequentPushesEnabled(enabled)
                    }
                })
        }
    }

    /// Following an activity under a tag, prepared where the activity's generic type is known and run later
    /// on another task, whose closure then captures no generic type (newer compilers warn about capturing a
    /// generic metatype there). Each is run by one task only.
    @available(iOS 16.2, *)
    struct FollowLater: @unchecked Sendable {
        let run: (_ tag: String) -> Void
    }

    @available(iOS 16.2, *)
    extension LiveActivityState {
        /// ActivityKit's state, or nil for one this SDK does not know (a newer SDK's case).
        init?(_ state: ActivityState) {
            switch state {
            case .active: self = .active
            case .stale: self = .stale
            case .ended: self = .ended
            case .dismissed: self = .dismissed
            // `pending` (iOS 26: scheduled, not shown yet) and whatever comes later: nothing to report.
            default: return nil
            }
        }
    }
#endif
