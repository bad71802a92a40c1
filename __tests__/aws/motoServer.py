"""moto's server (an AWS emulator) with IAM enforcement on, after filling the gaps that would stop the
product's unmodified clients where AWS itself lets them through. Run as `python3 motoServer.py -p PORT`
(the arguments of `python3 -m moto.server`); INITIAL_NO_AUTH_ACTION_COUNT in the environment says how many
requests pass before every request must be signed by an IAM identity allowed to make it.

Each gap filled, and why:
1. Operations AWS answers without a signature. moto 5.2 lets InitiateAuth through unsigned but asks IAM for
   RespondToAuthChallenge (the second half of every SRP sign-in), GetCredentialsForIdentity (how a browser
   trades its identity pool token for upload credentials), GlobalSignOut and RevokeToken (a customer's own
   tokens). In AWS all four are unauthenticated: they are added to moto's list of public operations.
2. Developer-authenticated identities. moto 5.2 hands out a new random identity on every
   GetOpenIdTokenForDeveloperIdentity, and has no LookupDeveloperIdentity. In AWS the same developer user id
   always gets the same identity, and the lookup answers it (ResourceNotFoundException when there is none): the
   server's document check relies on both. Both are answered here from a map kept by this process.
3. SRP's USER_ID_FOR_SRP. moto 5.2 answers the user's sub there; the client then names the user by it in
   RespondToAuthChallenge, which moto cannot find ("User does not exist."). Cognito answers the username for a
   pool whose users sign in by username, as this product's: the username is answered here.
4. An identity's credentials. moto 5.2 has no SetIdentityPoolRoles and answers GetCredentialsForIdentity with
   fixed keys that IAM does not know, so an upload with them is refused under enforcement. In AWS they are the
   pool's authenticated role's, assumed for that identity, with `${cognito-identity.amazonaws.com:sub}` in its
   policies standing for the identity id. Here the roles are kept per pool, the role is assumed through moto's
   STS (session name: the identity id) and that variable is replaced when IAM reads the role's inline policies.
5. S3 keys with reserved characters. The identity ids in the applicants' keys hold a colon, which the SDK
   signs URI-encoded (%3A), as S3's canonical request wants; moto checks the signature on the decoded path
   (a bare colon), so every such request is refused as SignatureDoesNotMatch. The path is encoded here as S3
   encodes it (every byte but unreserved characters and "/") before the check. The same for the query: a listing's
   prefix holds "/", which the SDK signs as %2F and moto checked bare; its names and values are encoded as SigV4's
   canonical query string encodes them (every byte but unreserved characters).
6. A text message's settings. moto 5.2 records each SMS published to a phone number (its id, number and text, which
   its own /moto-api/data.json lists as sns.SMS) but drops its message attributes and the region and account it was
   sent in, which is where the sender ID, the message type and the price cap travel. They are kept here on the same
   record, so data.json shows them beside the text.
7. Conditions on S3 requests. moto 5.2 evaluates no condition of an identity policy: its check of an action gives
   the policy no request context (IAMRequestBase.check_action_permitted), a condition whose key it was not given
   counts as met, and a condition that fails makes the statement an explicit deny (IAMPolicyStatement in
   iam/access_control.py). The server's role may PutObject under evidence/ only with {"StringEquals":
   {"s3:if-none-match": "*"}}, which S3 matches against the request's If-None-Match header. Here a statement
   conditioned on s3:if-none-match is evaluated as AWS evaluates it: on that header, a request without it does not
   match, and a statement that does not match does not apply (no deny). Any other condition in such a statement
   stops the check loudly rather than being passed over. Other statements are evaluated by moto as before.
8. NEW_PASSWORD_REQUIRED's parameters. moto 5.2 answers a temporary password's SRP sign-in with the challenge but
   only USERNAME in its parameters; Cognito sends the user's attributes and the required ones they lack
   (`userAttributes`, `requiredAttributes`, JSON), which amazon-cognito-identity-js parses before its
   newPasswordRequired callback, and fails on without them. They are added here, from the user moto keeps.
9. Object Lock's retention. moto 5.2 asks IAM for s3:PutObject on PutObjectRetention (PUT ?retention), where AWS
   asks for s3:PutObjectRetention: a role allowed to lock evidence but not to overwrite it was refused. The action
   is named here as AWS names it.
10. Forgetting an identity. moto 5.2 has no DeleteIdentities (how an erased applicant's storage identity goes). It
   is answered here as Cognito does: the identities leave the developer map (their lookup then answers
   ResourceNotFoundException, a new token for the same user a new identity) and the answer lists none unprocessed.
"""
import json
import sys

from moto.cognitoidentity.exceptions import ResourceNotFoundError
from moto.cognitoidentity.responses import CognitoIdentityResponse
from moto.cognitoidentity.utils import get_random_identity_id
from moto.cognitoidp.models import CognitoIdpBackend
from moto.core.authorization import ActionAuthenticatorMixin
from urllib.parse import quote, unquote

import threading

from moto.s3.responses import ACTION_MAP as S3_ACTION_MAP
from moto.iam.access_control import AssumedRoleAccessKey, IAMPolicyStatement, PermissionResult, S3IAMRequest
from moto.sns.models import SNSBackend
from moto.sts.models import sts_backends

ActionAuthenticatorMixin.PUBLIC_OPERATIONS += [
    "AWSCognitoIdentityProviderService.RespondToAuthChallenge",
    "AWSCognitoIdentityProviderService.GlobalSignOut",
    "AWSCognitoIdentityProviderService.RevokeToken",
    "AWSCognitoIdentityService.GetCredentialsForIdentity",
]

# (account, identity pool, developer user id) -> identity id
_developer_identities: dict = {}


def _get_open_id_token_for_developer_identity(self):
    pool = self._get_param("IdentityPoolId")
    logins = self._get_param("Logins") or {}
    identity_id = self._get_param("IdentityId")
    for user_id in logins.values():
        key = (self.current_account, pool, user_id)
        identity_id = _developer_identities.setdefault(key, identity_id or get_random_identity_id(self.region))
        _pool_of_identity[identity_id] = pool
    return self.backend.get_open_id_token_for_developer_identity(identity_id or get_random_identity_id(self.region))


def _lookup_developer_identity(self):
    key = (self.current_account, self._get_param("IdentityPoolId"), self._get_param("DeveloperUserIdentifier"))
    if key not in _developer_identities:
        raise ResourceNotFoundError(key[2])
    return json.dumps({"IdentityId": _developer_identities[key], "DeveloperUserIdentifierList": [key[2]]})


def _delete_identities(self):
    forgotten = set(self._get_param("IdentityIdsToDelete") or [])
    for key, identity_id in list(_developer_identities.items()):
        if identity_id in forgotten:
            del _developer_identities[key]
    for identity_id in forgotten:
        _pool_of_identity.pop(identity_id, None)
    return json.dumps({"UnprocessedIdentityIds": []})


_initiate_auth = CognitoIdpBackend.initiate_auth


def _initiate_auth_with_username(self, client_id, auth_flow, auth_parameters):
    answer = _initiate_auth(self, client_id, auth_flow, auth_parameters)
    parameters = answer.get("ChallengeParameters", {})
    if answer.get("ChallengeName") == "PASSWORD_VERIFIER" and "USERNAME" in parameters:
        parameters["USER_ID_FOR_SRP"] = parameters["USERNAME"]
    return answer


CognitoIdpBackend.initiate_auth = _initiate_auth_with_username

_respond_to_auth_challenge = CognitoIdpBackend.respond_to_auth_challenge


def _respond_with_new_password_parameters(self, session, client_id, challenge_name, challenge_responses):
    answer = _respond_to_auth_challenge(self, session, client_id, challenge_name, challenge_responses)
    if answer.get("ChallengeName") == "NEW_PASSWORD_REQUIRED":
        parameters = answer.setdefault("ChallengeParameters", {})
        _, user_pool = self.sessions[answer["Session"]]
        user = user_pool._get_user(parameters["USERNAME"])
        attributes = {attribute["Name"]: attribute["Value"] for attribute in user.attributes if attribute["Name"] != "sub"}
        parameters.update({"USER_ID_FOR_SRP": parameters["USERNAME"], "requiredAttributes": "[]", "userAttributes": json.dumps(attributes)})
    return answer


CognitoIdpBackend.respond_to_auth_challenge = _respond_with_new_password_parameters

# (account, identity pool) -> {"authenticated": role ARN}
_pool_roles: dict = {}
# identity id -> identity pool (learnt when the server asks for the identity's token)
_pool_of_identity: dict = {}


def _set_identity_pool_roles(self):
    _pool_roles[(self.current_account, self._get_param("IdentityPoolId"))] = self._get_param("Roles") or {}
    return ""


def _get_credentials_for_identity(self):
    identity_id = self._get_param("IdentityId")
    role = _pool_roles.get((self.current_account, _pool_of_identity.get(identity_id)), {}).get("authenticated")
    if role is None:
        return self.backend.get_credentials_for_identity(identity_id)
    assumed = sts_backends[self.current_account]["aws"].assume_role_with_web_identity(
        region_name=self.region, role_session_name=identity_id, role_arn=role, policy=None, duration=3600, external_id=None
    )
    return json.dumps(
        {
            "Credentials": {
                "AccessKeyId": assumed.access_key_id,
                "SecretKey": assumed.secret_access_key,
                "SessionToken": assumed.session_token,
                "Expiration": assumed.expiration.timestamp(),
            },
            "IdentityId": identity_id,
        }
    )


_collect_role_policies = AssumedRoleAccessKey.collect_policies


def _collect_role_policies_for_identity(self):
    identity_id = self._session_name
    if identity_id not in _pool_of_identity:
        return _collect_role_policies(self)
    variable = "${cognito-identity.amazonaws.com:sub}"
    return [
        policy.replace(variable, identity_id) if isinstance(policy, str) else json.loads(json.dumps(policy).replace(variable, identity_id)) if isinstance(policy, dict) else policy
        for policy in _collect_role_policies(self)
    ]


AssumedRoleAccessKey.collect_policies = _collect_role_policies_for_identity

_create_s3_request = S3IAMRequest._create_aws_request


def _create_s3_request_encoded(self):
    path, mark, query = self._path.partition("?")
    self._path = quote(unquote(path), safe="/~") + mark + _encoded_query(query)
    return _create_s3_request(self)


def _encoded_query(query):
    """The query's names and values encoded as SigV4's canonical query string wants (every byte but unreserved
    characters, "/" included), whatever encoding reached moto."""
    pairs = (pair.partition("=") for pair in query.split("&") if pair)
    return "&".join(quote(unquote(name), safe="-_.~") + "=" + quote(unquote(value), safe="-_.~") for name, _, value in pairs)


S3IAMRequest._create_aws_request = _create_s3_request_encoded

S3_ACTION_MAP["KEY"]["PUT"]["retention"] = "PutObjectRetention"

_publish = SNSBackend.publish


def _publish_keeping_sms_settings(self, *args, **kwargs):
    message_id = _publish(self, *args, **kwargs)
    sms = self.sms_message_objects.get(message_id) if kwargs.get("phone_number") else None
    if sms is not None:
        sms.message_attributes = kwargs.get("message_attributes") or {}
        sms.region = self.region_name
        sms.account = self.account_id
    return message_id


SNSBackend.publish = _publish_keeping_sms_settings


# condition key -> the request header S3 takes its value from
S3_CONDITION_HEADERS = {"s3:if-none-match": "if-none-match"}
# the headers of the S3 request being checked, for the statements it is checked against (one request per thread)
_s3_request = threading.local()
_check_s3_action = S3IAMRequest.check_action_permitted


def _check_s3_action_with_headers(self, resource):
    _s3_request.headers = {name.lower(): value for name, value in self._headers.items()}
    try:
        return _check_s3_action(self, resource)
    finally:
        _s3_request.headers = None


_statement_permits = IAMPolicyStatement.is_action_permitted


def _statement_permits_on_s3_headers(self, action, resource="*", principal=None, incoming_condition_values=None):
    condition = self._statement.get("Condition") or {}
    keys = {key.lower() for values in condition.values() for key in values}
    headers = getattr(_s3_request, "headers", None)
    if headers is None or not keys & S3_CONDITION_HEADERS.keys():
        return _statement_permits(self, action, resource, principal, incoming_condition_values)
    for operator, values in condition.items():
        if operator != "StringEquals" or {key.lower() for key in values} - S3_CONDITION_HEADERS.keys():
            raise NotImplementedError(f"the condition {operator} {sorted(values)} is not evaluated by motoServer.py")
        for key, expected in values.items():
            actual = headers.get(S3_CONDITION_HEADERS[key.lower()])
            if actual is None or actual not in (expected if isinstance(expected, list) else [expected]):
                return PermissionResult.NEUTRAL
    met = IAMPolicyStatement({name: value for name, value in self._statement.items() if name != "Condition"})
    return _statement_permits(met, action, resource, principal, incoming_condition_values)


S3IAMRequest.check_action_permitted = _check_s3_action_with_headers
IAMPolicyStatement.is_action_permitted = _statement_permits_on_s3_headers
CognitoIdentityResponse.set_identity_pool_roles = _set_identity_pool_roles
CognitoIdentityResponse.get_credentials_for_identity = _get_credentials_for_identity
CognitoIdentityResponse.get_open_id_token_for_developer_identity = _get_open_id_token_for_developer_identity
CognitoIdentityResponse.lookup_developer_identity = _lookup_developer_identity
CognitoIdentityResponse.delete_identities = _delete_identities

if __name__ == "__main__":
    from moto.server import main

    main(sys.argv[1:])
