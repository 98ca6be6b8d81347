/**
 * controllers/clusterrole-aggregation — writes the rules of ClusterRoles that have an
 * aggregationRule (admin, edit, view) as the union of the rules of the ClusterRoles their
 * selectors match. May import: controllers/runtime/** and apiserver/api/** only. Docs:
 * docs/controllers.md.
 */
export { aggregatedRules, rulesMatch } from './aggregated-rules.js';
export {
  CLUSTERROLE_AGGREGATION_CONTROLLER_NAME,
  CLUSTERROLE_AGGREGATION_FIELD_MANAGER,
  createAggregationReconciler,
  registerClusterRoleAggregationController,
} from './clusterrole-aggregation-controller.js';
