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
"""
import json
import sys

from moto.cognitoidentity.exceptions import ResourceNotFoundError
from moto.cognitoidentity.responses import CognitoIdentityResponse
from moto.cognitoidentity.utils import get_random_identity_id
from moto.cognitoidp.models import CognitoIdpBackend
from moto.core.authorization import ActionAuthenticatorMixin

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
    return self.backend.get_open_id_token_for_developer_identity(identity_id or get_random_identity_id(self.region))


def _lookup_developer_identity(self):
    key = (self.current_account, self._get_param("IdentityPoolId"), self._get_param("DeveloperUserIdentifier"))
    if key not in _developer_identities:
        raise ResourceNotFoundError(key[2])
    return json.dumps({"IdentityId": _developer_identities[key], "DeveloperUserIdentifierList": [key[2]]})


_initiate_auth = CognitoIdpBackend.initiate_auth


def _initiate_auth_with_username(self, client_id, auth_flow, auth_parameters):
    answer = _initiate_auth(self, client_id, auth_flow, auth_parameters)
    parameters = answer.get("ChallengeParameters", {})
    if answer.get("ChallengeName") == "PASSWORD_VERIFIER" and "USERNAME" in parameters:
        parameters["USER_ID_FOR_SRP"] = parameters["USERNAME"]
    return answer


CognitoIdpBackend.initiate_auth = _initiate_auth_with_username
CognitoIdentityResponse.get_open_id_token_for_developer_identity = _get_open_id_token_for_developer_identity
CognitoIdentityResponse.lookup_developer_identity = _lookup_developer_identity

if __name__ == "__main__":
    from moto.server import main

    main(sys.argv[1:])
