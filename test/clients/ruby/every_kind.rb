# Debian's ruby-kubeclient (4.9) against a kubesim cluster, run by
# test/clients/every-kind.test.ts: for each object of OBJECTS_JSON, in order, it discovers the
# object's resource in its group version (kubeclient's discovery defines create_<kind>,
# get_<kinds>, ... methods from it), then creates, gets, lists by label, merge-patches and
# updates the object; at the end it deletes them all, last created first.
#
# Usage: every_kind.rb KUBECONFIG OBJECTS_JSON
# Prints one JSON object: {"apiVersion/Kind": {"create": true, ..., "delete": true}}, or
# {"apiVersion/Kind": {"error": "..."}} for a step that failed.
require 'json'
require 'kubeclient'

kubeconfig, objects_json = ARGV
context = Kubeclient::Config.read(kubeconfig).context
objects = JSON.parse(File.read(objects_json), symbolize_names: true)
clients = {}
results = {}

# client_for returns a discovered client of the object's group version.
def client_for(clients, context, api_version)
  clients[api_version] ||= begin
    group, version = api_version.include?('/') ? api_version.split('/') : [nil, api_version]
    url = group ? "#{context.api_endpoint}/apis/#{group}" : "#{context.api_endpoint}/api"
    client = Kubeclient::Client.new(url, version, ssl_options: context.ssl_options,
                                                  auth_options: context.auth_options, as: :parsed_symbolized)
    client.discover
    client
  end
end

# methods_for finds the kind's resource in discovery and kubeclient's method names for it.
def methods_for(client, kind)
  # The group version's APIResourceList, the document discover read its methods from.
  resources = JSON.parse(client.rest_client.get(client.headers))['resources']
  resource = resources.find { |r| r['kind'] == kind && !r['name'].include?('/') }
  raise "#{kind} not in discovery" unless resource

  singular, plural = Kubeclient::ClientMixin.parse_definition(kind, resource['name']).method_names
  raise "discovery defined no create_#{singular}" unless client.respond_to?("create_#{singular}")

  [singular, plural]
end

def step(results, key, name)
  yield
  results[key][name] = true
rescue StandardError => e
  results[key][name] = "#{e.class}: #{e.message}"
end

created = []
objects.each do |object|
  key = "#{object[:apiVersion]}/#{object[:kind]}"
  results[key] = {}
  name = object[:metadata][:name]
  namespace = object[:metadata][:namespace]
  step(results, key, 'discover') do
    client = client_for(clients, context, object[:apiVersion])
    singular, plural = methods_for(client, object[:kind])
    step(results, key, 'create') do
      client.public_send("create_#{singular}", object)
      created.unshift([key, client, singular, name, namespace])
    end
    step(results, key, 'get') do
      got = client.public_send("get_#{singular}", name, namespace)
      raise "got #{got[:metadata][:name]}" unless got[:metadata][:name] == name
    end
    step(results, key, 'list') do
      listed = client.public_send("get_#{plural}", namespace: namespace, label_selector: 'app=bundle')
      raise "#{name} not listed" unless listed[:items].any? { |item| item[:metadata][:name] == name }
    end
    step(results, key, 'patch') do
      patched = client.public_send("merge_patch_#{singular}", name, { metadata: { labels: { crud: 'ruby' } } }, namespace)
      raise 'label not patched' unless patched[:metadata][:labels][:crud] == 'ruby'
    end
    step(results, key, 'update') do
      current = client.public_send("get_#{singular}", name, namespace)
      current[:metadata][:annotations] = (current[:metadata][:annotations] || {}).merge('example.com/updated-by': 'ruby')
      updated = client.public_send("update_#{singular}", current)
      raise 'annotation not updated' unless updated[:metadata][:annotations][:'example.com/updated-by'] == 'ruby'
    end
  end
end

created.each do |key, client, singular, name, namespace|
  step(results, key, 'delete') do
    client.public_send("delete_#{singular}", name, namespace)
    begin
      left = client.public_send("get_#{singular}", name, namespace)
      # Still there only while finalizers run (a Namespace without its controller).
      raise 'still there, not terminating' unless left[:metadata][:deletionTimestamp]
    rescue Kubeclient::ResourceNotFoundError
      nil
    end
  end
end

puts JSON.generate(results)
