@available(iOS 16.0, macOS 13.0, *)
extension LiveActivities {
    /// The name the gateway knows an ActivityAttributes type by (`activity_attributes_type`, and APNs's
    /// `attributes-type`, which iOS matches against the type): its name as Swift writes it, without module
    /// or enclosing types, such as `OrderAttributes`. The SDK reports the update token of each activity
    /// it follows under it (an activity started by push-to-start: under the `name` it was registered
    /// with, which should be this), and it is the `{attributes_type}` of
    /// `PUT /live_activity/types/{attributes_type}` for `PayloadSchema.registration`.
    public static func attributesTypeName(of type: Any.Type) -> String {
        String(describing: type)
    }
}
