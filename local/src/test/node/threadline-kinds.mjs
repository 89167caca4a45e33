// Drives Threadline's kinds with @kubernetes/client-node, a Kubernetes client we did not write:
// server-side apply of a manifest (it creates, then a changed field), a watch that waits
// for the operator's kstatus conditions to describe each generation, and a read of the status
// subresource. Prints one JSON line of what it saw; ClientNodeE2ETest runs it against the local
// mode with KUBECONFIG set to the administrator's kubeconfig.
//
//   node threadline-kinds.mjs <manifest.yaml> <namespace>
import * as k8s from '@kubernetes/client-node';
import fs from 'node:fs';

const [manifest, namespace] = process.argv.slice(2);
const kc = new k8s.KubeConfig();
kc.loadFromDefault();
const objects = k8s.KubernetesObjectApi.makeApiClient(kc);
const custom = kc.makeApiClient(k8s.CustomObjectsApi);
const [group, version] = 'threadline.dev/v1alpha1'.split('/');

const wanted = k8s.loadYaml(fs.readFileSync(manifest, 'utf8'));
wanted.metadata.namespace = namespace;
const name = wanted.metadata.name;
const plural = wanted.kind.toLowerCase() + 's';

function condition(object, type) {
  return (object.status?.conditions ?? []).find((c) => c.type === type);
}

// Resolves with the watched object once its status describes generation `generation` and it is
// Ready; rejects after `millis`.
function watchUntilReady(generation, millis) {
  return new Promise((resolve, reject) => {
    let seen = 0;
    let controller;
    const timer = setTimeout(() => {
      controller?.abort();
      reject(new Error(`not Ready at generation ${generation} within ${millis} ms (${seen} events)`));
    }, millis);
    new k8s.Watch(kc)
      .watch(
        `/apis/${group}/${version}/namespaces/${namespace}/${plural}`,
        { fieldSelector: `metadata.name=${name}` },
        (type, object) => {
          seen++;
          const ready = condition(object, 'Ready');
          if (
            object.metadata.generation === generation &&
            object.status?.observedGeneration === generation &&
            ready?.status === 'True' &&
            ready?.observedGeneration === generation
          ) {
            clearTimeout(timer);
            controller?.abort();
            resolve({ events: seen, object });
          }
        },
        (err) => {
          if (err && err.name !== 'AbortError') {
            clearTimeout(timer);
            reject(err);
          }
        },
      )
      .then((c) => (controller = c), reject);
  });
}

// Server-side apply, as Flux does: the first apply creates the object.
const created = await objects.patch(
  wanted,
  undefined,
  undefined,
  'client-node',
  true,
  k8s.PatchStrategy.ServerSideApply,
);
const first = await watchUntilReady(created.metadata.generation, 30000);

// Applied again with a changed field by the same manager.
const changed = structuredClone(wanted);
changed.spec.instructions = `${wanted.spec.instructions ?? ''} (changed)`.trim();
const patched = await objects.patch(
  changed,
  undefined,
  undefined,
  'client-node',
  true,
  k8s.PatchStrategy.ServerSideApply,
);
const second = await watchUntilReady(patched.metadata.generation, 30000);

const status = await custom.getNamespacedCustomObjectStatus({ group, version, namespace, plural, name });
const ready = condition(status, 'Ready');
console.log(
  JSON.stringify({
    created: created.metadata.name,
    generations: [created.metadata.generation, patched.metadata.generation],
    watchEvents: first.events + second.events,
    instructions: status.spec.instructions,
    observedGeneration: status.status.observedGeneration,
    ready: ready.status,
    readyReason: ready.reason,
    conditions: status.status.conditions.map((c) => c.type),
  }),
);
