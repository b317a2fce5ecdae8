/**
 * What NetworkPolicies allow, evaluated as a CNI enforces them: a connection passes when some policy selecting the
 * source allows it as egress (or none selects the source for Egress) and some policy selecting the destination allows
 * it as ingress (or none selects it for Ingress). Only what the manifests use is modelled: one namespace, label
 * selectors, namespace selectors by `kubernetes.io/metadata.name`, IPv4 ipBlocks, numeric ports.
 */
import type { INetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';

type Spec = NonNullable<INetworkPolicy['spec']>;
type ILabelSelector = Spec['podSelector'];
type INetworkPolicyPeer = NonNullable<NonNullable<Spec['egress']>[number]['to']>[number];

export type Endpoint = { namespace: string; labels: Record<string, string> } | { ip: string };

export function selects(selector: ILabelSelector | undefined, labels: Record<string, string>): boolean {
  if (!selector) return true;
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) if (labels[k] !== v) return false;
  for (const e of selector.matchExpressions ?? []) {
    const value = labels[e.key];
    const ok =
      e.operator === 'In'
        ? value !== undefined && (e.values ?? []).includes(value)
        : e.operator === 'NotIn'
          ? value === undefined || !(e.values ?? []).includes(value)
          : e.operator === 'Exists'
            ? value !== undefined
            : e.operator === 'DoesNotExist'
              ? value === undefined
              : false;
    if (!ok) return false;
  }
  return true;
}

function ipv4(ip: string): number | undefined {
  const parts = ip.split('.').map(Number);
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255)) return undefined;
  return parts.reduce((n, p) => n * 256 + p, 0);
}

function inCidr(ip: string, cidr: string): boolean {
  const [base = '', bits = '32'] = cidr.split('/');
  const a = ipv4(ip);
  const b = ipv4(base);
  if (a === undefined || b === undefined) return false;
  const size = 2 ** (32 - Number(bits));
  return Math.floor(a / size) === Math.floor(b / size);
}

function peerMatches(peer: INetworkPolicyPeer, policyNamespace: string, other: Endpoint): boolean {
  if (peer.ipBlock)
    return (
      'ip' in other &&
      inCidr(other.ip, peer.ipBlock.cidr) &&
      !(peer.ipBlock.except ?? []).some((c) => inCidr(other.ip, c))
    );
  if (!('namespace' in other)) return false;
  const namespaceOk = peer.namespaceSelector
    ? selects(peer.namespaceSelector, { 'kubernetes.io/metadata.name': other.namespace })
    : other.namespace === policyNamespace;
  return namespaceOk && selects(peer.podSelector, other.labels);
}

function portMatches(
  ports: Array<{ port?: number | string; protocol?: string; endPort?: number }> | undefined,
  port: number,
  protocol: string,
): boolean {
  if (!ports || ports.length === 0) return true;
  return ports.some(
    (p) =>
      (p.protocol ?? 'TCP') === protocol &&
      (p.port === undefined ||
        p.port === port ||
        (typeof p.port === 'number' && p.endPort !== undefined && port >= p.port && port <= p.endPort)),
  );
}

const isPod = (e: Endpoint): e is { namespace: string; labels: Record<string, string> } => 'namespace' in e;

/** True when a connection from `from` to `to` on port/protocol is allowed by the policies of `namespace`. */
export function allowed(
  policies: INetworkPolicy[],
  namespace: string,
  from: Endpoint,
  to: Endpoint,
  port: number,
  protocol = 'TCP',
  ingressByPolicies = true,
): boolean {
  const types = (p: INetworkPolicy): string[] =>
    p.spec?.policyTypes ?? (p.spec?.egress ? ['Ingress', 'Egress'] : ['Ingress']);
  if (isPod(from) && from.namespace === namespace) {
    const egress = policies.filter((p) => types(p).includes('Egress') && selects(p.spec?.podSelector, from.labels));
    if (
      egress.length > 0 &&
      !egress.some((p) =>
        (p.spec?.egress ?? []).some(
          (r) =>
            (r.to === undefined || r.to.some((peer) => peerMatches(peer, namespace, to))) &&
            portMatches(r.ports, port, protocol),
        ),
      )
    )
      return false;
  }
  // ingressByPolicies false: the destination's ingress policies are not among these (an operator writes them)
  if (ingressByPolicies && isPod(to) && to.namespace === namespace) {
    const ingress = policies.filter((p) => types(p).includes('Ingress') && selects(p.spec?.podSelector, to.labels));
    if (
      ingress.length > 0 &&
      !ingress.some((p) =>
        (p.spec?.ingress ?? []).some(
          (r) =>
            (r.from === undefined || r.from.some((peer) => peerMatches(peer, namespace, from))) &&
            portMatches(r.ports, port, protocol),
        ),
      )
    )
      return false;
  }
  return true;
}
