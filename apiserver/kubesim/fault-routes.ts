/**
 * The HTTP face of fault injection (apiserver/faults), under /apis/kubesim.io/v1alpha1:
 *   GET    /faults           the rules (FaultRuleList)
 *   POST   /faults           add a rule (body: a FaultRule spec) → 201 FaultRule; 422 names bad fields
 *   DELETE /faults           remove every rule
 *   DELETE /faults/{id}      remove one rule → the removed FaultRule; 404 if there is none
 *   GET    /faults/injected  what was injected so far (InjectedFaultList)
 *   DELETE /faults/injected  forget it
 * These routes are never subject to faults: they are not resource routes.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { notFound } from '../api/api-error.js';
import type { FaultInjector } from '../faults/injector.js';
import { FAULTS_API_VERSION, type FaultRuleInput } from '../faults/rule-schema.js';
import { KUBESIM_API, parseBody } from './cluster-routes.js';

export const FAULTS_PATH = `${KUBESIM_API}/faults`;
export const INJECTED_FAULTS_PATH = `${FAULTS_PATH}/injected`;

/** registerFaultRoutes mounts the routes above for `faults`. */
export function registerFaultRoutes(app: FastifyInstance, faults: FaultInjector): void {
  app.get(FAULTS_PATH, async (_request, reply) => send(reply, 200, list('FaultRuleList', faults.list())));
  app.post(FAULTS_PATH, async (request, reply) => send(reply, 201, faults.add(parseBody(z.unknown(), request) as FaultRuleInput)));
  app.delete(FAULTS_PATH, async (_request, reply) => {
    const removed = faults.list();
    faults.clear();
    return send(reply, 200, list('FaultRuleList', removed));
  });
  app.get(INJECTED_FAULTS_PATH, async (_request, reply) => send(reply, 200, list('InjectedFaultList', faults.injected())));
  app.delete(INJECTED_FAULTS_PATH, async (_request, reply) => {
    faults.clearInjected();
    return send(reply, 200, list('InjectedFaultList', []));
  });
  app.delete<{ Params: { id: string } }>(`${FAULTS_PATH}/:id`, async (request, reply) => {
    const rule = faults.get(request.params.id);
    if (!rule) throw notFound({ group: 'kubesim.io', resource: 'faults', name: request.params.id });
    faults.remove(rule.id);
    return send(reply, 200, rule);
  });
}

function list(kind: string, items: unknown[]): unknown {
  return { apiVersion: FAULTS_API_VERSION, kind, items };
}

function send(reply: FastifyReply, code: number, body: unknown): FastifyReply {
  return reply.code(code).type('application/json').send(JSON.stringify(body));
}
