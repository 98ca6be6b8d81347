import { forbidden, invalid, isValidPercent, validateNonnegativeField } from '../validation.js';
import { validateImmutableSelector, validateSelectorAndTemplate } from './pod-template-validation.js';
/** validateDeployment checks a defaulted Deployment (pure); `old` is set on update, where
 * the selector must not change. */
export function validateDeployment(deployment, old) {
    const { spec } = deployment;
    const errors = [
        ...validateNonnegativeField(spec.replicas, 'spec.replicas'),
        ...validateSelectorAndTemplate(spec),
        ...validateStrategy(spec.strategy ?? {}, 'spec.strategy'),
        ...validateNonnegativeField(spec.minReadySeconds, 'spec.minReadySeconds'),
        ...validateNonnegativeField(spec.revisionHistoryLimit, 'spec.revisionHistoryLimit'),
    ];
    const deadline = spec.progressDeadlineSeconds;
    if (deadline !== undefined) {
        errors.push(...validateNonnegativeField(deadline, 'spec.progressDeadlineSeconds'));
        if (deadline <= (spec.minReadySeconds ?? 0)) {
            errors.push(invalid('spec.progressDeadlineSeconds', deadline, 'must be greater than minReadySeconds'));
        }
    }
    if (old)
        errors.push(...validateImmutableSelector(spec.selector, old.spec.selector, 'spec.selector'));
    return errors;
}
function validateStrategy(strategy, field) {
    switch (strategy.type) {
        case 'Recreate':
            return strategy.rollingUpdate ? [forbidden(`${field}.rollingUpdate`, "may not be specified when strategy `type` is 'Recreate'")] : [];
        case 'RollingUpdate':
        case undefined:
            // Defaulting always fills rollingUpdate for RollingUpdate; absent means defaults were skipped.
            if (!strategy.rollingUpdate)
                return [{ type: 'FieldValueRequired', field: `${field}.rollingUpdate`, detail: 'this should be defaulted and never be nil' }];
            return validateRollingUpdate(strategy.rollingUpdate, `${field}.rollingUpdate`);
        default:
            return assertNever(strategy.type);
    }
}
function validateRollingUpdate(rollingUpdate, field) {
    const maxUnavailable = rollingUpdate.maxUnavailable ?? 0;
    const maxSurge = rollingUpdate.maxSurge ?? 0;
    const errors = [...validateIntOrPercent(maxUnavailable, `${field}.maxUnavailable`), ...validateIntOrPercent(maxSurge, `${field}.maxSurge`)];
    if (intOrPercentValue(maxUnavailable) === 0 && intOrPercentValue(maxSurge) === 0) {
        errors.push(invalid(`${field}.maxUnavailable`, maxUnavailable, 'may not be 0 when `maxSurge` is 0'));
    }
    // Only maxUnavailable is capped: surging by more than 100% is allowed.
    const percent = percentValue(maxUnavailable);
    if (percent !== undefined && percent > 100)
        errors.push(invalid(`${field}.maxUnavailable`, maxUnavailable, 'must not be greater than 100%'));
    return errors;
}
function validateIntOrPercent(value, field) {
    if (typeof value === 'string')
        return isValidPercent(value).map((detail) => invalid(field, value, detail));
    return validateNonnegativeField(value, field);
}
function percentValue(value) {
    return typeof value === 'string' && isValidPercent(value).length === 0 ? Number(value.slice(0, -1)) : undefined;
}
// A string that is neither a percentage nor an integer counts as 0, as intstr's IntValue() does.
function intOrPercentValue(value) {
    if (typeof value === 'number')
        return value;
    return percentValue(value) ?? (/^[+-]?\d+$/.test(value) ? Number(value) : 0);
}
function assertNever(value) {
    throw new Error(`unexpected deployment strategy ${String(value)}`);
}
//# sourceMappingURL=deployment-validation.js.map