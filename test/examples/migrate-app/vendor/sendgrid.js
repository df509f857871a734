// A vendored copy of a dependency: left out of the report.
module.exports = { send: (message) => client.send({ to: message.to, templateId: 'd-vendored' }) };
