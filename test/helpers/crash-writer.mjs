// A writer process for the crash test: creates and updates documents through the document service and
// prints each acknowledged write, until it is killed.
import { openProject } from '../../dist/project.js';

const project = await openProject(process.argv[2]);
let n = 0;
for (;;) {
  n++;
  const v = await project.documents.create('author', { name: `Crash ${n}`, bio: 'x'.repeat(2000 + (n % 7) * 500) });
  process.stdout.write(`ack create ${v.documentId} Crash ${n}\n`);
  const u = await project.documents.update('author', v.documentId, { bio: `updated ${n}` });
  process.stdout.write(`ack update ${u.documentId} updated ${n}\n`);
}
