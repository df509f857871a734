// The floor for drawing a workflow: fetch it, parse the JSON, and print how many nodes it has.
const response = await fetch(process.argv[2], { headers: { authorization: `Bearer ${process.env.LOOPS_API_KEY}` } });
const workflow = await response.json();
process.stdout.write(`${Object.keys(workflow.nodes).length} nodes\n`);
