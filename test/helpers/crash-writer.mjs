// A writer process for the crash test: keeps rewriting a few large documents through the document
// service and prints each acknowledged write, until it is killed.
import { openProject } from '../../dist/project.js';

const project = await openProject(process.argv[2]);
const ct = project.schemas.find('author');
const ids = [...project.documents.index.documents(ct.uid)].map((d) => d.documentId);
while (ids.length < 3) {
  const v = await project.documents.create('author', { name: `Crash ${ids.length}`, bio: 'start' });
  process.stdout.write(`ack ${v.documentId} start\n`);
  ids.push(v.documentId);
}
for (let n = 0; ; n++) {
  const id = ids[n % ids.length];
  const stamp = `${process.pid}-${n}`;
  await project.documents.update('author', id, { bio: `${stamp} ${'y'.repeat(1_500_000 + (n % 1000))}` });
  process.stdout.write(`ack ${id} ${stamp}\n`);
}
