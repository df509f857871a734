/**
 * The attack suite covers what is declared, or fails: every write operation of the contract is in
 * its operation table with what makes it reach people, which the write gate's own judgement of the
 * operation agrees with; every command of the tree that may write is a road of the suite, with
 * the operations it makes (a command whose operations reach no one is run dry, and must hold only
 * those); every option that is a person's yes, on any command, is given by a command attack or
 * walked by the file it is declared with (roads.ts, YES_OPTIONS); every tool a server offers that
 * may write is one of those commands or a road of its own;
 * every road that takes a person's yes has its binding walked (binding.ts); and every kind of a
 * plan's unit is walked.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PLAN_KINDS } from '../../src/areas/plan-kinds.js';
import { specs } from '../../src/areas/registry.js';
import { longFlag, walkSpecs } from '../../src/core/declare.js';
import { judgeWrite } from '../../src/platform/write-gate.js';
import { writeCommands as examples } from '../support/write-commands.js';
import { arenaForFile } from './arena.js';
import { commandAttacks } from './attacks.js';
import { BINDING, CHANGES, type YesRoad } from './binding.js';
import { OPERATIONS, operationOf, reachingBody, writeOperations } from './operations.js';
import { COMMANDS, OTHER_ROADS, placeOf, writeCommands, YES_OPTIONS } from './roads.js';

/** The tools of the server's own, where each is walked or why it changes no account, and the road of a yes it makes a change on. */
const OWN_TOOLS: Record<string, { walked: string; yes?: YesRoad }> = {
  run_command: { walked: 'mcp.test.ts and api.test.ts: every command it runs' },
  workflow_apply: { walked: 'binding.test.ts', yes: 'workflow_apply' },
  approved_apply: { walked: 'binding.test.ts: runs a call a person approved, through the same gate', yes: 'approve' },
  workflow_propose: { walked: 'plans an edit and sends nothing' },
  workflow_test: { walked: 'runs a proposed edit in a throwaway sandbox' },
};

/** Tools whose writes are local files or that change the account only through an input walked elsewhere. */
const LOCAL_TOOLS: Record<string, string> = {
  content_pull: 'writes the tree, reads the account',
  content_render: 'writes HTML',
  content_convert: 'writes the tree; its upload makes createUpload and completeUpload, which reach no one',
  content_review: 'writes its page; its send-previews input is walked by plans.test.ts',
};

/** The unit kinds of a plan, each with the test that walks it. */
const UNIT_KINDS: Record<string, { unit: unknown; walked: string }> = {
  request: {
    unit: {
      record: 'workflow node w/n',
      kind: 'workflow',
      id: 'w',
      calls: [{ op: 'request', operation: 'updateWorkflowNode', method: 'POST', path: '/v1/workflows/w/nodes/n', body: {} }],
    },
    walked: 'plans.test.ts: a request unit of each plannable command',
  },
  emails: {
    unit: {
      record: 'campaigns/november',
      kind: 'campaign',
      id: 'c',
      calls: [{ op: 'updateEmailMessage', messageId: 'm', body: {}, expectedRevisionId: null }],
    },
    walked: "plans.test.ts: a content push's email unit",
  },
  workflows: {
    unit: { record: 'workflows/win-back', kind: 'workflow', id: 'w', calls: [{ op: 'updateWorkflowNode', key: 'x', payload: {} }] },
    walked: "plans.test.ts: a content push's workflow unit",
  },
};

const arena = arenaForFile();

describe('what the attack suite covers', () => {
  it('declares every write operation of the contract, as the write gate judges it', () => {
    const contract = writeOperations().map((write) => write.operationId);
    expect(contract.length).toBeGreaterThan(30);
    expect(
      contract.filter((operation) => OPERATIONS[operation] === undefined),
      'operations the suite does not declare',
    ).toEqual([]);
    expect(
      Object.keys(OPERATIONS).filter((operation) => !contract.includes(operation)),
      'operations the contract does not have',
    ).toEqual([]);
    for (const write of writeOperations()) {
      const declared = OPERATIONS[write.operationId]!;
      const path = write.template.replace(/\{(\w+)\}/g, (_whole, name: string) => `${name}-1`);
      const judged = judgeWrite(write.method, path, reachingBody(write.operationId));
      expect(judged.needs, write.operationId).toBe({ always: 'yes', live: 'live', nothing: 'nothing' }[declared.reach]);
      expect(operationOf(write.method, path), path).toBe(write.operationId);
    }
  });

  it('walks every command that may write, with a way to say yes wherever its operations reach people', () => {
    const commands = [...writeCommands().keys()];
    const declared = [...Object.keys(COMMANDS), ...Object.keys(OTHER_ROADS)];
    expect(
      commands.filter((command) => !declared.includes(command)),
      'commands the suite does not walk',
    ).toEqual([]);
    expect(
      declared.filter((command) => !commands.includes(command)),
      'roads that are no command',
    ).toEqual([]);
    for (const [command, entry] of Object.entries(COMMANDS))
      for (const operation of Object.keys(entry)) expect(OPERATIONS[operation], `${command}: ${operation}`).toBeDefined();
    for (const attack of commandAttacks()) expect(attack.yes, `${attack.command} reaches people and has no yes`).toBeDefined();
    // Every operation that reaches people is made by some command, so each road (the api's too) walks it.
    const made = new Set(commandAttacks().map((attack) => attack.operation));
    const reaching = Object.entries(OPERATIONS).filter(([, reach]) => reach.reach !== 'nothing');
    expect(reaching.map(([operation]) => operation).filter((operation) => !made.has(operation))).toEqual([]);
  });

  it("walks every option that is a person's yes, on any command: by a command attack, or by the file it is declared with", () => {
    const options = walkSpecs(specs).flatMap(({ path, spec }) =>
      (spec.options ?? []).filter((option) => option.tier === 'destructive').map((option) => `${path.join(' ')} ${longFlag(option)}`),
    );
    expect(options.length).toBeGreaterThan(10);
    // A command attack gives its --live as the yes, or the option among its words (a schedule at a campaign's create).
    const attacked = new Set(
      commandAttacks().flatMap((attack) => {
        const words = attack.words(placeOf(arena().ids(), arena().root));
        return options.filter(
          (option) =>
            option.startsWith(`${attack.command} --`) &&
            (words.includes(option.slice(attack.command.length + 1)) || option === `${attack.command} ${attack.yes}`),
        );
      }),
    );
    expect(options.filter((option) => !attacked.has(option)).sort(), 'options that are a yes, walked by no attack').toEqual(Object.keys(YES_OPTIONS).sort());
    for (const [option, file] of Object.entries(YES_OPTIONS)) {
      const flag = option.split(' ').at(-1)!;
      const text = readFileSync(new URL(file, import.meta.url), 'utf8');
      expect(text.includes(`'${flag}'`) || text.includes(`'${flag.slice(2)}'`), `${option}: ${file} does not give it`).toBe(true);
    }
  });

  it('holds each command whose operations reach no one to those operations, as its example sends them', async () => {
    const ground = arena();
    const home = ground.root;
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
    writeFileSync(join(home, 'logo.png'), png);
    const quiet = new Set(
      Object.entries(COMMANDS).flatMap(([command, entry]) => (Object.values(entry).every((words) => words === 'example') ? [command] : [])),
    );
    for (const { name, argv, input: given, before } of examples(home).filter(({ name }) => quiet.has(name))) {
      ground.set();
      const input = before === undefined ? given : (await ground.sandbox.loopsctl(before)).stdout;
      // Sent for real: an upload's second step follows what its first answered.
      const ran = await ground.sandbox.loopsctl(argv, { input });
      const sent = ground.sent().map((request) => operationOf(request.method, request.path));
      expect(sent.length, `${name}: ${ran.stderr}`).toBeGreaterThan(0);
      expect(
        sent.filter((operation) => COMMANDS[name]![operation!] === undefined),
        name,
      ).toEqual([]);
    }
    ground.set();
  });

  it('walks every tool a server offers that may write, as a command or a road of its own', async () => {
    const { tools } = await (await arena().mcp('destructive')).client.listTools();
    const commands = new Map([...writeCommands().keys()].map((command) => [command.replace(/[ -]/g, '_'), command]));
    const writing = tools.filter((tool) => tool.annotations?.readOnlyHint !== true).map((tool) => tool.name);
    expect(writing.length).toBeGreaterThan(30);
    const unwalked = writing.filter((name) => {
      const command = commands.get(name);
      return command === undefined
        ? OWN_TOOLS[name] === undefined && LOCAL_TOOLS[name] === undefined
        : COMMANDS[command] === undefined && OTHER_ROADS[command] === undefined;
    });
    expect(unwalked).toEqual([]);
    expect(specs.length).toBeGreaterThan(10);
  });

  it("walks what a person's yes binds on every road that takes one: the calls let through, and each way a call can change since", async () => {
    // The roads: a terminal's (a command whose yes is its tier, an option or --live), the client's question
    // (a tool of the destructive tier that asks), and the server's own tools that make a change on a yes.
    const { tools } = await (await arena().mcp('destructive')).client.listTools();
    const roads = new Set<string>();
    if (commandAttacks().some((attack) => attack.yes !== undefined)) roads.add('terminal');
    if (tools.some((tool) => tool.annotations?.destructiveHint === true)) roads.add('elicitation');
    for (const tool of tools) {
      const road = OWN_TOOLS[tool.name]?.yes;
      if (road !== undefined) roads.add(road);
    }
    expect(roads.size).toBeGreaterThanOrEqual(4);
    expect(Object.keys(BINDING).sort(), 'the roads that take a yes, and those whose binding is walked').toEqual([...roads].sort());
    for (const [road, changes] of Object.entries(BINDING)) {
      expect(Object.keys(changes).sort(), road).toEqual([...CHANGES].sort());
      expect(typeof changes.exact, `${road}: the calls a yes lets through are walked`).toBe('function');
      const walked = Object.values(changes).filter((walk) => typeof walk === 'function');
      expect(walked.length, `${road}: a change since the yes is walked`).toBeGreaterThanOrEqual(3);
      for (const [change, walk] of Object.entries(changes))
        if (typeof walk === 'string') expect(walk.length, `${road}: ${change} says why it cannot arise`).toBeGreaterThan(40);
    }
  });

  it('walks every kind of unit a plan holds', () => {
    const kinds = (PLAN_KINDS as unknown as { units?: { holds(unit: unknown): boolean }[] }).units;
    expect(kinds, 'the plan kinds no longer list their units as `units`: say here how to count them').toBeDefined();
    expect(kinds).toHaveLength(Object.keys(UNIT_KINDS).length);
    // Each kind holds one of the units walked.
    const holders = Object.values(UNIT_KINDS).map(({ unit }) => kinds!.findIndex((kind) => kind.holds(unit)));
    expect(holders.sort()).toEqual(kinds!.map((_kind, index) => index));
  });
});
